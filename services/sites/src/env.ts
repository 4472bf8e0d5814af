import { z } from 'zod';
import { BaseEnvShape, loadConfig } from '@quire/kit';

export const SitesEnvShape = {
  ...BaseEnvShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(3103),
};
export type SitesConfig = ReturnType<typeof loadSitesConfig>;
export const loadSitesConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(SitesEnvShape, env);
