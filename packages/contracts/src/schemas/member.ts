import { z } from 'zod';
import { IdSchema, RoleOrGuestSchema, RoleSchema, TimestampSchema } from '../common.ts';
import { UserSchema } from './user.ts';
import { objectAndId } from './shapes.ts';

export const MemberSchema = z
  .object({
    ...objectAndId('member', 'user'),
    role: RoleOrGuestSchema,
    user: UserSchema,
    disabled: z.boolean().describe('Whether the membership is disabled (never, in Quire: members are removed instead)'),
    joinedAt: TimestampSchema.describe('When the user joined the organization'),
    lastSeenAt: TimestampSchema.optional().describe(
      'When the user was last seen active in the organization (`POST /orgs/{organizationId}/ping`)',
    ),
    sso: z.boolean().describe('Whether the user can log in with SSO'),
    spaces: z.number().int().describe('Count of spaces of the organization the member can access'),
    teams: z.number().int().describe('Count of teams of the organization the member belongs to'),
    sites: z.number().int().describe('Count of sites of the organization the member can access'),
  })
  .describe('Member');
export type Member = z.infer<typeof MemberSchema>;

export const MemberRoleFilterSchema = z
  .union([RoleSchema, z.literal('guest')])
  .describe('Only members with this role (`guest` for members without a role)');
export const MemberSortSchema = z
  .enum(['joinedAt', 'lastSeenAt', 'name'])
  .default('joinedAt')
  .describe('Sort by join date (default), last-seen date (lists only members seen at least once) or display name');

/** The filter and order of a list of members (`listMembersInOrganizationById`, the aggregate of a site's roles). */
export const MemberSearchShape = {
  search: z
    .string()
    .trim()
    .max(256)
    .optional()
    .describe('Only members whose display name or e-mail contains this (case-insensitive)'),
  sort: MemberSortSchema,
};

export const InviteEmailSchema = z.email().max(320).describe('E-mail address of the user to invite');
export const InviteUsersOutputSchema = z
  .object({
    users: z
      .array(z.string())
      .describe(
        'Ids of the users invited: a new account is a member at once, an existing account once its owner accepts',
      ),
    invited: z.number().int().describe('Number of users invited (see `users`)'),
    failedSSOEmails: z
      .array(z.string())
      .optional()
      .describe(
        'E-mails invited as members but not as SSO members, because they already belong to another organization',
      ),
  })
  .describe('InviteUsersResult');

export const VisitorClaimsOutputSchema = z.object({
  serviceVisitorClaims: z
    .string()
    .describe(
      'A signed JWT (HS256) with the member claims: `sub` (user id), `organization`, `role`, `sso`, `iss`, `iat`, `exp`',
    ),
});

/** The input of the internal `countForMembers` operations (sites, spaces a member can access): at most 1000 members. */
export const MembersToCountSchema = z
  .array(z.object({ userId: IdSchema, role: RoleOrGuestSchema, teams: z.array(IdSchema).default([]) }))
  .max(1000)
  .describe('The members, with their organization role and teams');
