import { BaseEnvShape, loadConfig, portSetting, SecretsEnvShape, SERVICE_ENDPOINTS } from '@quire/kit';

export const IntegrationsEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.integrations.port),
  ...SecretsEnvShape,
};
export type IntegrationsConfig = ReturnType<typeof loadIntegrationsConfig>;
export const loadIntegrationsConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(IntegrationsEnvShape, env);
