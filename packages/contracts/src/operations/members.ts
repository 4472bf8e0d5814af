import { z } from 'zod';
import { IdSchema, listOf, OrderSchema, PageQueryShape, RoleOrGuestSchema, TimestampSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, userId } from '../params.ts';
import {
  InviteEmailSchema,
  InviteUsersOutputSchema,
  MemberRoleFilterSchema,
  MemberSchema,
  MemberSearchShape,
  VisitorClaimsOutputSchema,
} from '../schemas/member.ts';
import { MemberTeamSchema } from '../schemas/team.ts';
import { ORGANIZATION, resourceOps } from './resources.ts';

const op = operationsOf('org-admin', { tags: ['organization-members'] });

const members = resourceOps(op, { noun: 'members', in: ORGANIZATION, param: { userId }, item: MemberSchema });

export const listMembersInOrganizationById = members.list(
  'listMembersInOrganizationById',
  'List all organization members',
  { order: OrderSchema, role: MemberRoleFilterSchema.optional(), ...MemberSearchShape },
);

export const getMemberInOrganizationById = members.get(
  'getMemberInOrganizationById',
  'Get a member of an organization',
);

export const updateMemberInOrganizationById = members.update(
  'updateMemberInOrganizationById',
  "Change a member's role (null: guest)",
  { role: RoleOrGuestSchema.optional() },
);

export const removeMemberFromOrganizationById = members.delete(
  'removeMemberFromOrganizationById',
  'Remove a member from an organization',
  204,
);

export const updateOrganizationMemberLastSeenAt = op({
  id: 'members.ping',
  input: z.object({ organizationId }),
  output: VisitorClaimsOutputSchema,
  http: {
    route: 'POST /orgs/{organizationId}/ping',
    operationId: 'updateOrganizationMemberLastSeenAt',
    summary: "Update the caller's last-seen time; returns the caller's claims as a signed JWT",
  },
});

export const setUserAsSSOMemberForOrganization = op({
  id: 'members.updateSso',
  input: z.object({ organizationId, userId }),
  output: MemberSchema,
  http: {
    route: 'POST /orgs/{organizationId}/members/{userId}/sso',
    operationId: 'setUserAsSSOMemberForOrganization',
    summary: 'Set a member as an SSO member',
  },
});

export const listTeamsForOrganizationMember = op({
  id: 'members.listTeams',
  input: z.object({
    organizationId,
    userId,
    ...PageQueryShape,
    title: z.string().trim().max(64).optional().describe('Only teams whose title contains this (case-insensitive)'),
  }),
  output: listOf(MemberTeamSchema),
  http: {
    route: 'GET /orgs/{organizationId}/members/{userId}/teams',
    operationId: 'listTeamsForOrganizationMember',
    summary: 'List the teams of a member',
  },
});

export const inviteUsersToOrganization = op({
  id: 'members.invite',
  input: z.object({
    organizationId,
    emails: z
      .array(z.union([InviteEmailSchema, z.object({ email: InviteEmailSchema, role: RoleOrGuestSchema })]))
      .min(1)
      .max(1000)
      .describe('Users to add: an e-mail, or an e-mail with its own role'),
    role: RoleOrGuestSchema.optional().describe(
      "Role of invited users given by e-mail alone (default: the organization's default role, else `read`)",
    ),
    sso: z.boolean().optional().describe('Add the users as SSO members (default false)'),
  }),
  output: InviteUsersOutputSchema,
  http: {
    route: 'POST /orgs/{organizationId}/invites',
    operationId: 'inviteUsersToOrganization',
    summary: 'Add users to an organization (created when new); existing members are left as they are',
    tags: ['organization-invites'],
  },
});

const OrganizationInviteSchema = z
  .object({
    object: z.literal('organization-invite').describe('Always `organization-invite`'),
    id: IdSchema,
    user: z
      .object({ id: IdSchema, email: z.string(), displayName: z.string() })
      .describe('The person invited (their account, made when the e-mail had none)'),
    role: RoleOrGuestSchema.describe('The role accepting gives'),
    joins: z
      .boolean()
      .describe('true: not a member until they accept (an account that existed); false: a member already'),
    createdAt: TimestampSchema,
    expiresAt: TimestampSchema.describe('When the link stops working'),
  })
  .describe('OrganizationInvite');

export const listOrganizationInvites = op({
  id: 'members.listInvites',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(OrganizationInviteSchema),
  http: {
    route: 'GET /orgs/{organizationId}/invites',
    operationId: 'listOrganizationInvites',
    summary:
      'The pending invitations of an organization, newest first: not used, withdrawn or expired (organization ' +
      'admins; Quire extension)',
    tags: ['organization-invites'],
  },
});

export const deleteOrganizationInvite = op({
  id: 'members.deleteInvite',
  input: z.object({ organizationId, inviteId: IdSchema.describe('The unique id of the invitation') }),
  output: z.void(),
  http: {
    route: 'DELETE /orgs/{organizationId}/invites/{inviteId}',
    status: 204,
    operationId: 'deleteOrganizationInvite',
    summary:
      'Withdraw a pending invitation: its link stops working; a person it made a member stays one (organization ' +
      'admins; Quire extension)',
    tags: ['organization-invites'],
  },
});

/** Other services → org-admin: the memberships of these users in an organization (non-members left out), in the order asked. */
export const getMembersByIds = op({
  id: 'members.getMany',
  access: 'internal',
  input: z.object({ organizationId, ids: z.array(IdSchema).max(1000).describe('User ids') }),
  output: z.object({ items: z.array(MemberSchema) }),
});

/**
 * sites → org-admin: every member of an organization matching the filters, with what the site policy needs (role,
 * teams) and the sort keys of `listPermissionsAggregateInSite`, which decides access and pages them.
 */
export const listMembersForAccess = op({
  id: 'members.listForAccess',
  access: 'internal',
  input: z.object({
    organizationId,
    search: MemberSearchShape.search,
    team: IdSchema.optional().describe('Only the members of this team'),
    seenOnly: z.boolean().default(false).describe('Only the members seen at least once'),
  }),
  output: z.object({
    items: z.array(
      z.object({
        userId: IdSchema,
        role: RoleOrGuestSchema,
        teams: z.array(IdSchema).describe("Ids of the member's teams"),
        joinedAt: z.string().describe('ISO date-time'),
        lastSeenAt: z.string().nullable().describe('ISO date-time, null: never seen'),
        sortName: z.string().describe('The lower-cased display name (the `name` sort key)'),
      }),
    ),
  }),
});
