import { z } from 'zod';
import { BaseEnvShape, loadConfig } from '@quire/kit';

export const OrgAdminEnvShape = {
  ...BaseEnvShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(3101),
  QUIRE_ADMIN_TOKEN: z.string().min(32).optional().describe('Instance admin token (CLI administration)'),
  QUIRE_BUILD: z.string().default('source').describe('Build identifier reported by GET /v1/'),
};
export type OrgAdminConfig = ReturnType<typeof loadOrgAdminConfig>;
export const loadOrgAdminConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(OrgAdminEnvShape, env);
