import { z } from 'zod';
import { BaseEnvShape, loadConfig, portSetting, SERVICE_ENDPOINTS } from '@quire/kit';

export const OrgAdminEnvShape = {
  ...BaseEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS['org-admin'].port),
  QUIRE_ADMIN_TOKEN: z.string().min(32).optional().describe('Instance admin token (CLI administration)'),
  QUIRE_BUILD: z.string().default('source').describe('Build identifier reported by GET /v1/'),
};
export type OrgAdminConfig = ReturnType<typeof loadOrgAdminConfig>;
export const loadOrgAdminConfig = (env: Record<string, string | undefined> = process.env) => loadConfig(OrgAdminEnvShape, env);
