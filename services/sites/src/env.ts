import { z } from 'zod';
import { BaseEnvShape, loadConfig, portSetting, SecretsEnvShape, SERVICE_ENDPOINTS } from '@quire/kit';

export const SitesEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.sites.port),
  /** Seals the sites' publishing-auth keys (the kit's SecretBox). */
  ...SecretsEnvShape,
  QUIRE_HOSTNAME_RECHECK_EVERY_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(3_600_000)
    .describe("How often every site's custom hostname has its DNS TXT record checked again (and at start)"),
};
export type SitesConfig = ReturnType<typeof loadSitesConfig>;
export const loadSitesConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(SitesEnvShape, env);
