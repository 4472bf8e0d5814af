import { z } from 'zod';
import { BaseEnvShape, intSetting, loadConfig, portSetting, SecretsEnvShape, SERVICE_ENDPOINTS } from '@quire/kit';

export const OrgAdminEnvShape = {
  ...BaseEnvShape,
  /** Seals OpenID Connect client secrets (the kit's SecretBox). */
  ...SecretsEnvShape,
  PORT: portSetting(SERVICE_ENDPOINTS['org-admin'].port),
  QUIRE_ADMIN_TOKEN: z.string().min(32).optional().describe('Instance admin token (CLI administration)'),
  QUIRE_SMTP_URL: z
    .string()
    .url()
    .optional()
    .describe('SMTP server for sign-in and invite e-mails (smtp:// or smtps://)'),
  QUIRE_MAIL_FROM: z.string().default('Quire <quire@localhost>').describe('From address of e-mails'),
  QUIRE_BUILD: z.string().default('source').describe('Build identifier reported by GET /v1/'),
  QUIRE_AUDIT_RETENTION_DAYS: intSetting(
    { min: 0, max: 36_500, default: 365 },
    'Days the audit log keeps an entry (0: forever); older ones are purged hourly',
  ),
};
export type OrgAdminConfig = ReturnType<typeof loadOrgAdminConfig>;
export const loadOrgAdminConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(OrgAdminEnvShape, env);
