import { BaseEnvShape, loadConfig, portSetting, SERVICE_ENDPOINTS } from '@quire/kit';

export const SitesEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.sites.port),
};
export type SitesConfig = ReturnType<typeof loadSitesConfig>;
export const loadSitesConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(SitesEnvShape, env);
