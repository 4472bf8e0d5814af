import { z } from 'zod';
import { IdSchema, listOf, OrderSchema, PageQueryShape, RoleOrGuestSchema } from '../common.ts';
import { defineOperation } from '../operation.ts';
import {
  InviteEmailSchema,
  InviteUsersOutputSchema,
  MemberRoleFilterSchema,
  MemberSchema,
  MemberSortSchema,
  VisitorClaimsOutputSchema,
} from '../schemas/member.ts';
import { MemberTeamSchema } from '../schemas/team.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const userId = IdSchema.describe('The unique id of the user');
const tags = ['organization-members'];

export const listMembersInOrganizationById = defineOperation({
  id: 'members.list',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    ...PageQueryShape,
    order: OrderSchema,
    role: MemberRoleFilterSchema.optional(),
    search: z.string().trim().max(256).optional().describe('Only members whose display name or e-mail contains this (case-insensitive)'),
    sort: MemberSortSchema,
  }),
  output: listOf(MemberSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/members', status: 200, operationId: 'listMembersInOrganizationById', summary: 'List all organization members', tags },
});

export const getMemberInOrganizationById = defineOperation({
  id: 'members.get',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, userId }),
  output: MemberSchema,
  http: { method: 'GET', path: '/orgs/{organizationId}/members/{userId}', status: 200, operationId: 'getMemberInOrganizationById', summary: 'Get a member of an organization', tags },
});

export const updateMemberInOrganizationById = defineOperation({
  id: 'members.update',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, userId, role: RoleOrGuestSchema.optional() }),
  output: MemberSchema,
  http: { method: 'PATCH', path: '/orgs/{organizationId}/members/{userId}', status: 200, operationId: 'updateMemberInOrganizationById', summary: "Change a member's role (null: guest)", tags },
});

export const removeMemberFromOrganizationById = defineOperation({
  id: 'members.remove',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, userId }),
  output: z.void(),
  http: { method: 'DELETE', path: '/orgs/{organizationId}/members/{userId}', status: 204, operationId: 'removeMemberFromOrganizationById', summary: 'Remove a member from an organization', tags },
});

export const updateOrganizationMemberLastSeenAt = defineOperation({
  id: 'members.ping',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId }),
  output: VisitorClaimsOutputSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/ping', status: 200, operationId: 'updateOrganizationMemberLastSeenAt', summary: "Update the caller's last-seen time; returns the caller's claims as a signed JWT", tags },
});

export const setUserAsSSOMemberForOrganization = defineOperation({
  id: 'members.setSso',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, userId }),
  output: MemberSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/members/{userId}/sso', status: 200, operationId: 'setUserAsSSOMemberForOrganization', summary: 'Set a member as an SSO member', tags },
});

export const listTeamsForOrganizationMember = defineOperation({
  id: 'members.listTeams',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    userId,
    ...PageQueryShape,
    title: z.string().trim().max(64).optional().describe('Only teams whose title contains this (case-insensitive)'),
  }),
  output: listOf(MemberTeamSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/members/{userId}/teams', status: 200, operationId: 'listTeamsForOrganizationMember', summary: 'List the teams of a member', tags },
});

export const inviteUsersToOrganization = defineOperation({
  id: 'members.invite',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    emails: z
      .array(z.union([InviteEmailSchema, z.object({ email: InviteEmailSchema, role: RoleOrGuestSchema })]))
      .min(1)
      .max(1000)
      .describe('Users to add: an e-mail, or an e-mail with its own role'),
    role: RoleOrGuestSchema.optional().describe("Role of invited users given by e-mail alone (default: the organization's default role, else `read`)"),
    sso: z.boolean().optional().describe('Add the users as SSO members (default false)'),
  }),
  output: InviteUsersOutputSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/invites', status: 200, operationId: 'inviteUsersToOrganization', summary: 'Add users to an organization (created when new); existing members are left as they are', tags: ['organization-invites'] },
});
