import { z } from 'zod';
import { BaseEnvShape, loadConfig, portSetting, SERVICE_ENDPOINTS } from '@quire/kit';

export const ContentEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS.content.port),
  QUIRE_PURGE_EVERY_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(3_600_000)
    .describe('How often the job removing spaces deleted more than 7 days ago runs (default hourly)'),
};
export type ContentConfig = ReturnType<typeof loadContentConfig>;
export const loadContentConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(ContentEnvShape, env);
