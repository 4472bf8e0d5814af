import { z } from 'zod';
import { BaseEnvShape, loadConfig, portSetting, SERVICE_ENDPOINTS } from '@quire/kit';

export const IntegrationsEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.integrations.port),
  QUIRE_SECRETS_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe('Secret the key encrypting integration secrets is derived from (HKDF-SHA256); QUIRE_INTERNAL_SECRET when unset'),
  QUIRE_SECRETS_PREVIOUS_KEYS: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((k) => k.trim()).filter(Boolean) : []))
    .pipe(z.array(z.string().min(32, 'each previous key must be at least 32 characters')))
    .describe('Comma-separated previous values of QUIRE_SECRETS_KEY: still decrypt, and are re-encrypted under the current key'),
  QUIRE_SECRETS_ROTATE_EVERY_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(3_600_000)
    .describe('How often the job re-encrypting secrets under the current key runs (default hourly, and at start)'),
};
export type IntegrationsConfig = ReturnType<typeof loadIntegrationsConfig>;
export const loadIntegrationsConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(IntegrationsEnvShape, env);
