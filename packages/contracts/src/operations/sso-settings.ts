import { IdSchema, RoleOrGuestSchema } from '../common.ts';

/** Where the members a sign-in provider (SAML, OpenID Connect) brings in start: their team and their role. */
export const SsoMemberDefaultsShape = {
  defaultTeam: IdSchema.nullable()
    .optional()
    .describe('Id of a team of the organization new SSO members join (null: none)'),
  defaultRole: RoleOrGuestSchema.optional(),
};
