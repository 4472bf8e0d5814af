import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape } from '../common.ts';
import { defineOperation } from '../operation.ts';
import { OrganizationTeamMemberSchema, TeamMemberRoleSchema, TeamSchema, TeamTitleSchema } from '../schemas/team.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const teamId = IdSchema.describe('The unique id of the team');
const userId = IdSchema.describe('The unique id of the user');
const tags = ['teams'];
const UserRefSchema = z.string().trim().min(1).max(320).describe('A user id or an e-mail address');

export const listTeamsInOrganizationById = defineOperation({
  id: 'teams.list',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    ...PageQueryShape,
    owner: IdSchema.optional().describe('Only the teams this member can manage (all of them for an organization admin)'),
    title: z.string().trim().max(64).optional().describe('Only teams whose title contains this (case-insensitive)'),
  }),
  output: listOf(TeamSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/teams', status: 200, operationId: 'listTeamsInOrganizationById', summary: 'List the teams of an organization', tags },
});

export const createOrganizationTeam = defineOperation({
  id: 'teams.create',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    title: TeamTitleSchema,
    members: z.array(IdSchema).max(1000).optional().describe('Ids of organization members to add to the team (role `member`)'),
  }),
  output: TeamSchema,
  http: { method: 'PUT', path: '/orgs/{organizationId}/teams', status: 201, operationId: 'createOrganizationTeam', summary: 'Create a team', tags },
});

export const getTeamInOrganizationById = defineOperation({
  id: 'teams.get',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, teamId }),
  output: TeamSchema,
  http: { method: 'GET', path: '/orgs/{organizationId}/teams/{teamId}', status: 200, operationId: 'getTeamInOrganizationById', summary: 'Get a team', tags },
});

export const updateTeamInOrganizationById = defineOperation({
  id: 'teams.update',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, teamId, title: TeamTitleSchema }),
  output: TeamSchema,
  http: { method: 'PATCH', path: '/orgs/{organizationId}/teams/{teamId}', status: 200, operationId: 'updateTeamInOrganizationById', summary: 'Rename a team', tags },
});

export const removeTeamFromOrganizationById = defineOperation({
  id: 'teams.remove',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, teamId }),
  output: z.void(),
  http: { method: 'DELETE', path: '/orgs/{organizationId}/teams/{teamId}', status: 204, operationId: 'removeTeamFromOrganizationById', summary: 'Delete a team', tags },
});

export const listTeamMembersInOrganizationById = defineOperation({
  id: 'teams.listMembers',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, teamId, ...PageQueryShape }),
  output: listOf(OrganizationTeamMemberSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/teams/{teamId}/members', status: 200, operationId: 'listTeamMembersInOrganizationById', summary: 'List the members of a team', tags },
});

export const updateMembersInOrganizationTeam = defineOperation({
  id: 'teams.updateMembers',
  service: 'org-admin',
  access: 'user',
  input: z.object({
    organizationId,
    teamId,
    add: z.array(UserRefSchema).max(1000).optional().describe('Organization members to add (user ids or e-mails)'),
    remove: z.array(UserRefSchema).max(1000).optional().describe('Users to remove (user ids or e-mails); removal wins over `add` and `memberships`'),
    memberships: z
      .record(IdSchema, z.object({ role: TeamMemberRoleSchema }))
      .optional()
      .describe('Role by user id: adds the member with that role, or changes their role'),
  }),
  output: z.void(),
  http: { method: 'PUT', path: '/orgs/{organizationId}/teams/{teamId}/members', status: 204, operationId: 'updateMembersInOrganizationTeam', summary: 'Add, remove and change the role of team members in bulk', tags },
});

export const addMemberToOrganizationTeamById = defineOperation({
  id: 'teams.putMember',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, teamId, userId, role: TeamMemberRoleSchema.optional().describe('Role in the team (default `member` when added)') }),
  output: z.void(),
  http: { method: 'PUT', path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}', status: 204, operationId: 'addMemberToOrganizationTeamById', summary: 'Add a member to a team, or change their role in it', tags },
});

export const deleteMemberFromOrganizationTeamById = defineOperation({
  id: 'teams.removeMember',
  service: 'org-admin',
  access: 'user',
  input: z.object({ organizationId, teamId, userId }),
  output: z.void(),
  http: { method: 'DELETE', path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}', status: 204, operationId: 'deleteMemberFromOrganizationTeamById', summary: 'Remove a member from a team', tags },
});
