import { z } from 'zod';
import { RoleOrGuestSchema, TimestampSchema } from '../common.ts';
import { TeamSchema } from './team.ts';

/** What the SAML and the OpenID Connect providers of an organization have alike. */

export const SsoLabelSchema = z
  .string()
  .trim()
  .min(1)
  .max(30)
  .describe('Label of the provider, shown on the login page (1..30)');

/** How a provider is named to the organization's members. */
export const SsoProviderNameShape = {
  id: z.string().describe('Unique identifier of the provider'),
  label: z.string().describe('Label of the provider'),
};

/** Where the members the provider lets in for the first time go, and since when it exists. */
export const SsoNewMembersShape = {
  defaultTeam: TeamSchema.optional().describe('Team new SSO members join'),
  defaultRole: RoleOrGuestSchema.describe('Role of new SSO members (null: guest)'),
  createdAt: TimestampSchema,
};
