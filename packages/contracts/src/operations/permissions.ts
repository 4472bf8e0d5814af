import { z } from 'zod';
import { IdSchema, listOf, NoContentSchema, PageQueryShape, RoleSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { collectionId, organizationId, spaceId, teamId, userId } from '../params.ts';
import {
  InviteUsersAndTeamsShape,
  PermissionRoleUpdateShape,
  requireInvitees,
  TeamContentPermissionSchema,
  UserContentPermissionSchema,
} from '../schemas/permissions.ts';
import { TeamSchema } from '../schemas/team.ts';

/**
 * Explicit permissions on spaces and collections (GitBook's `inviteToSpace`… `listPermissionsAggregateInCollection`):
 * a user's or a team's role on one space or collection, on top of the organization role and the default levels.
 */
const spaceOp = operationsOf('content', { tags: ['space-permissions'] });
const collectionOp = operationsOf('content', { tags: ['collection-permissions'] });

const aggregateRole = RoleSchema.optional().describe('If defined, only members with this role are returned');

export const inviteToSpace = spaceOp({
  id: 'spacePermissions.invite',
  input: z.object({ spaceId, ...InviteUsersAndTeamsShape }).superRefine(requireInvitees),
  output: NoContentSchema,
  http: {
    route: 'POST /spaces/{spaceId}/permissions',
    status: 204,
    operationId: 'inviteToSpace',
    summary: 'Give users or teams a role on a space',
  },
});

export const listUserPermissionsInSpace = spaceOp({
  id: 'spacePermissions.listUsers',
  input: z.object({ spaceId, ...PageQueryShape }),
  output: listOf(UserContentPermissionSchema),
  http: {
    route: 'GET /spaces/{spaceId}/permissions/users',
    operationId: 'listUserPermissionsInSpace',
    summary: 'List the users given an explicit role on a space',
  },
});

export const listTeamPermissionsInSpace = spaceOp({
  id: 'spacePermissions.listTeams',
  input: z.object({ spaceId, ...PageQueryShape }),
  output: listOf(TeamContentPermissionSchema),
  http: {
    route: 'GET /spaces/{spaceId}/permissions/teams',
    operationId: 'listTeamPermissionsInSpace',
    summary: 'List the teams given an explicit role on a space',
  },
});

export const updateUserPermissionInSpace = spaceOp({
  id: 'spacePermissions.updateUser',
  input: z.object({ spaceId, userId, ...PermissionRoleUpdateShape }),
  output: NoContentSchema,
  http: {
    route: 'PATCH /spaces/{spaceId}/permissions/users/{userId}',
    status: 204,
    operationId: 'updateUserPermissionInSpace',
    summary: "Change a user's explicit role on a space",
  },
});

export const updateTeamPermissionInSpace = spaceOp({
  id: 'spacePermissions.updateTeam',
  input: z.object({ spaceId, teamId, ...PermissionRoleUpdateShape }),
  output: NoContentSchema,
  http: {
    route: 'PATCH /spaces/{spaceId}/permissions/teams/{teamId}',
    status: 204,
    operationId: 'updateTeamPermissionInSpace',
    summary: "Change a team's explicit role on a space",
  },
});

export const removeUserFromSpace = spaceOp({
  id: 'spacePermissions.deleteUser',
  input: z.object({ spaceId, userId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /spaces/{spaceId}/permissions/users/{userId}',
    status: 205,
    operationId: 'removeUserFromSpace',
    summary: "Remove a user's explicit role on a space",
  },
});

export const removeTeamFromSpace = spaceOp({
  id: 'spacePermissions.deleteTeam',
  input: z.object({ spaceId, teamId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /spaces/{spaceId}/permissions/teams/{teamId}',
    status: 205,
    operationId: 'removeTeamFromSpace',
    summary: "Remove a team's explicit role on a space",
  },
});

export const listPermissionsAggregateInSpace = spaceOp({
  id: 'spacePermissions.listAggregate',
  input: z.object({ spaceId, ...PageQueryShape, role: aggregateRole }),
  output: listOf(UserContentPermissionSchema),
  http: {
    route: 'GET /spaces/{spaceId}/permissions/aggregate',
    operationId: 'listPermissionsAggregateInSpace',
    summary: 'List every member who can access a space, with their effective role',
  },
});

export const inviteToCollection = collectionOp({
  id: 'collectionPermissions.invite',
  input: z.object({ collectionId, ...InviteUsersAndTeamsShape }).superRefine(requireInvitees),
  output: NoContentSchema,
  http: {
    route: 'POST /collections/{collectionId}/permissions',
    status: 204,
    operationId: 'inviteToCollection',
    summary: 'Give users or teams a role on a collection (and the content inheriting from it)',
  },
});

export const listUserPermissionsInCollection = collectionOp({
  id: 'collectionPermissions.listUsers',
  input: z.object({ collectionId, ...PageQueryShape }),
  output: listOf(UserContentPermissionSchema),
  http: {
    route: 'GET /collections/{collectionId}/permissions/users',
    operationId: 'listUserPermissionsInCollection',
    summary: 'List the users given an explicit role on a collection',
  },
});

export const listTeamPermissionsInCollection = collectionOp({
  id: 'collectionPermissions.listTeams',
  input: z.object({ collectionId, ...PageQueryShape }),
  output: listOf(TeamContentPermissionSchema),
  http: {
    route: 'GET /collections/{collectionId}/permissions/teams',
    operationId: 'listTeamPermissionsInCollection',
    summary: 'List the teams given an explicit role on a collection',
  },
});

export const updateUserPermissionInCollection = collectionOp({
  id: 'collectionPermissions.updateUser',
  input: z.object({ collectionId, userId, ...PermissionRoleUpdateShape }),
  output: NoContentSchema,
  http: {
    route: 'PATCH /collections/{collectionId}/permissions/users/{userId}',
    status: 204,
    operationId: 'updateUserPermissionInCollection',
    summary: "Change a user's explicit role on a collection",
  },
});

export const updateTeamPermissionInCollection = collectionOp({
  id: 'collectionPermissions.updateTeam',
  input: z.object({ collectionId, teamId, ...PermissionRoleUpdateShape }),
  output: NoContentSchema,
  http: {
    route: 'PATCH /collections/{collectionId}/permissions/teams/{teamId}',
    status: 204,
    operationId: 'updateTeamPermissionInCollection',
    summary: "Change a team's explicit role on a collection",
  },
});

export const removeUserFromCollection = collectionOp({
  id: 'collectionPermissions.deleteUser',
  input: z.object({ collectionId, userId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /collections/{collectionId}/permissions/users/{userId}',
    status: 205,
    operationId: 'removeUserFromCollection',
    summary: "Remove a user's explicit role on a collection",
  },
});

export const removeTeamFromCollection = collectionOp({
  id: 'collectionPermissions.deleteTeam',
  input: z.object({ collectionId, teamId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /collections/{collectionId}/permissions/teams/{teamId}',
    status: 205,
    operationId: 'removeTeamFromCollection',
    summary: "Remove a team's explicit role on a collection",
  },
});

export const listPermissionsAggregateInCollection = collectionOp({
  id: 'collectionPermissions.listAggregate',
  input: z.object({ collectionId, ...PageQueryShape, role: aggregateRole }),
  output: listOf(UserContentPermissionSchema),
  http: {
    route: 'GET /collections/{collectionId}/permissions/aggregate',
    operationId: 'listPermissionsAggregateInCollection',
    summary: 'List every member who can access a collection, with their effective role',
  },
});

/**
 * org-admin → content: how many live spaces each team has access to through its grants (on the space, or on a
 * collection the space inherits from), for `Team.spaces`.
 */
export const countTeamSpaces = spaceOp({
  id: 'spacePermissions.countForTeams',
  access: 'internal',
  input: z.object({ organizationId, teams: z.array(IdSchema).max(1000).describe('Team ids') }),
  output: z.object({ counts: z.record(z.string(), z.number().int()).describe('Spaces count by team id') }),
});

/** Other services → org-admin: teams of an organization by id (unknown ones left out), as `viewer` sees them. */
export const getTeamsByIds = operationsOf('org-admin', { tags: ['teams'] })({
  id: 'teams.getMany',
  access: 'internal',
  input: z.object({
    organizationId,
    ids: z.array(IdSchema).max(1000).describe('Team ids'),
    viewer: IdSchema.describe('The user the teams are presented to'),
  }),
  output: z.object({ items: z.array(TeamSchema) }),
});
