import { BaseEnvShape, loadConfig, portSetting, SecretsEnvShape, SERVICE_ENDPOINTS } from '@quire/kit';

export const SitesEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.sites.port),
  /** Seals the sites' publishing-auth keys (the kit's SecretBox). */
  ...SecretsEnvShape,
};
export type SitesConfig = ReturnType<typeof loadSitesConfig>;
export const loadSitesConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(SitesEnvShape, env);
