import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, userId, teamId } from '../params.ts';
import { OrganizationTeamMemberSchema, TeamMemberRoleSchema, TeamSchema, TeamTitleSchema } from '../schemas/team.ts';
import { ORGANIZATION, resourceOps } from './resources.ts';

const op = operationsOf('org-admin', { tags: ['teams'] });

const UserRefSchema = z.string().trim().min(1).max(320).describe('A user id or an e-mail address');

const teams = resourceOps(op, { noun: 'teams', in: ORGANIZATION, param: { teamId }, item: TeamSchema });

export const listTeamsInOrganizationById = teams.list(
  'listTeamsInOrganizationById',
  'List the teams of an organization',
  {
    owner: IdSchema.optional().describe(
      'Only the teams this member can manage (all of them for an organization admin)',
    ),
    title: z.string().trim().max(64).optional().describe('Only teams whose title contains this (case-insensitive)'),
  },
);

export const createOrganizationTeam = teams.create(
  'createOrganizationTeam',
  'Create a team',
  {
    title: TeamTitleSchema,
    members: z
      .array(IdSchema)
      .max(1000)
      .optional()
      .describe('Ids of organization members to add to the team (role `member`)'),
  },
  'PUT',
);

export const getTeamInOrganizationById = teams.get('getTeamInOrganizationById', 'Get a team');

export const updateTeamInOrganizationById = teams.update('updateTeamInOrganizationById', 'Rename a team', {
  title: TeamTitleSchema,
});

export const removeTeamFromOrganizationById = teams.delete('removeTeamFromOrganizationById', 'Delete a team', 204);

export const listTeamMembersInOrganizationById = op({
  id: 'teams.listMembers',
  input: z.object({ organizationId, teamId, ...PageQueryShape }),
  output: listOf(OrganizationTeamMemberSchema),
  http: {
    route: 'GET /orgs/{organizationId}/teams/{teamId}/members',
    operationId: 'listTeamMembersInOrganizationById',
    summary: 'List the members of a team',
  },
});

export const updateMembersInOrganizationTeam = op({
  id: 'teams.updateMembers',
  input: z.object({
    organizationId,
    teamId,
    add: z.array(UserRefSchema).max(1000).optional().describe('Organization members to add (user ids or e-mails)'),
    remove: z
      .array(UserRefSchema)
      .max(1000)
      .optional()
      .describe('Users to remove (user ids or e-mails); removal wins over `add` and `memberships`'),
    memberships: z
      .record(IdSchema, z.object({ role: TeamMemberRoleSchema }))
      .optional()
      .describe('Role by user id: adds the member with that role, or changes their role'),
  }),
  output: z.void(),
  http: {
    route: 'PUT /orgs/{organizationId}/teams/{teamId}/members',
    status: 204,
    operationId: 'updateMembersInOrganizationTeam',
    summary: 'Add, remove and change the role of team members in bulk',
  },
});

export const addMemberToOrganizationTeamById = op({
  id: 'teams.upsertMember',
  input: z.object({
    organizationId,
    teamId,
    userId,
    role: TeamMemberRoleSchema.optional().describe('Role in the team (default `member` when added)'),
  }),
  output: z.void(),
  http: {
    route: 'PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}',
    status: 204,
    operationId: 'addMemberToOrganizationTeamById',
    summary: 'Add a member to a team, or change their role in it',
  },
});

export const deleteMemberFromOrganizationTeamById = op({
  id: 'teams.deleteMember',
  input: z.object({ organizationId, teamId, userId }),
  output: z.void(),
  http: {
    route: 'DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}',
    status: 204,
    operationId: 'deleteMemberFromOrganizationTeamById',
    summary: 'Remove a member from a team',
  },
});
