import { z } from 'zod';
import { BaseEnvShape, loadConfig } from '@quire/kit';

export const ContentEnvShape = {
  ...BaseEnvShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(3102),
};
export type ContentConfig = ReturnType<typeof loadContentConfig>;
export const loadContentConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(ContentEnvShape, env);
