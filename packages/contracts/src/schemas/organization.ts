import { z } from 'zod';
import { RoleOrGuestSchema, TimestampSchema } from '../common.ts';
import { MergeRulesStandaloneConfigurationSchema } from './merge-rules.ts';
import { apiAndAppUrls, objectAndId, permissionsOf } from './shapes.ts';

export const OrganizationPermissionsSchema = permissionsOf('What the caller may do with the organization', {
  view: 'Can the caller view the organization',
  admin: 'Can the caller manage the title, members, etc.',
  ownTeam: 'Is the caller owner of a team',
  createContent: 'Can the caller create spaces and collections',
  createOpenAPISpec: 'Can the caller create OpenAPI specifications',
  ingestConversations: 'Can the caller ingest conversations',
  viewBilling: 'Can the caller view billing details',
  listMembers: 'Can the caller list members',
  listTeams: 'Can the caller list teams',
  listIntegrations: 'Can the caller list integrations',
});

export const OrganizationTitleSchema = z
  .string()
  .min(2)
  .max(255)
  .regex(/\S.*\S/, 'must not be blank')
  .describe('Name of the organization (2..255)');
export const OrganizationHostnameSchema = z
  .string()
  .min(3)
  .max(32)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, 'lowercase letters, digits and dashes')
  .describe('Default hostname of the organization public content');
export const EmailDomainsSchema = z
  .array(
    z
      .string()
      .min(1)
      .max(253)
      .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a domain name'),
  )
  .max(100)
  .describe('E-mail domains whose users may join');

export const OrganizationSchema = z
  .object({
    ...objectAndId('organization', 'organization'),
    title: z.string().describe('Name of the organization'),
    createdAt: TimestampSchema,
    emailDomains: z.array(z.string()).describe('E-mail domains whose users may join'),
    hostname: z.string().optional().describe('Default hostname of the organization public content'),
    type: z.enum(['business', 'community']).describe('Kind of organization'),
    useCase: z
      .enum([
        'internalDocs',
        'docsSite',
        'audienceControlledSite',
        'productDocs',
        'teamKnowledgeBase',
        'designSystem',
        'openSourceDocs',
        'notes',
        'other',
      ])
      .optional()
      .describe('What the organization uses the platform for'),
    defaultRole: RoleOrGuestSchema.describe('Role given to members who join without one'),
    sso: z.boolean().describe('Whether SSO is enforced organization-wide'),
    ai: z.boolean().describe('Whether AI features are enabled'),
    inviteLinks: z.boolean().describe('Whether invite links are enabled'),
    mergeRules: MergeRulesStandaloneConfigurationSchema.optional().describe(
      'Merge rules of the spaces that inherit them (present on the organizations org-admin answers)',
    ),
    plan: z.string().describe('Billing plan; a self-hosted instance reports `internal`'),
    trial: z
      .object({ status: z.enum(['notapplicable', 'none', 'active', 'ended', 'expired']), count: z.number().int() })
      .describe('Trial state; not applicable on a self-hosted instance'),
    urls: apiAndAppUrls('organization'),
    permissions: OrganizationPermissionsSchema,
  })
  .describe('Organization');
export type Organization = z.infer<typeof OrganizationSchema>;
