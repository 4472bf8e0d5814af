import { z } from 'zod';
import { BaseEnvShape, loadConfig } from '@quire/kit';

export const IntegrationsEnvShape = {
  ...BaseEnvShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(3104),
};
export type IntegrationsConfig = ReturnType<typeof loadIntegrationsConfig>;
export const loadIntegrationsConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(IntegrationsEnvShape, env);
