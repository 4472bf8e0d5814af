import { z } from 'zod';
import { IdSchema, listOf, NoContentSchema, PageQueryShape, RoleSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { type Grantee, teamGrantee, userGrantee } from './grantees.ts';
import { collectionId, organizationId, spaceId } from '../params.ts';
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

const aggregateRole = RoleSchema.optional().describe('If defined, only members with this role are returned');

/**
 * Where explicit permissions are given (a space, or a collection): the same operations under two route
 * prefixes, two ids' nouns and two sets of GitBook operationIds (`inviteToSpace`, `inviteToCollection`…).
 */
interface Target<S extends z.ZodRawShape> {
  op: ReturnType<typeof operationsOf<'content'>>;
  noun: 'spacePermissions' | 'collectionPermissions';
  base: `/${string}`;
  where: S;
  /** `Space`, `Collection`: the suffix of the GitBook operationIds. */
  name: 'Space' | 'Collection';
  on: string;
}

const user = userGrantee(UserContentPermissionSchema);
const team = teamGrantee(TeamContentPermissionSchema);

const listGrantees = <S extends z.ZodRawShape, P extends z.ZodRawShape, R extends z.ZodType>(
  t: Target<S>,
  g: Grantee<P, R>,
) =>
  t.op({
    id: `${t.noun}.list${g.name}s`,
    input: z.object({ ...t.where, ...PageQueryShape }),
    output: listOf(g.item),
    http: {
      route: `GET ${t.base}/permissions/${g.path}`,
      operationId: `list${g.name}PermissionsIn${t.name}`,
      summary: `List the ${g.path} given an explicit role on ${t.on}`,
    },
  });

const updateGrantee = <S extends z.ZodRawShape, P extends z.ZodRawShape, R extends z.ZodType>(
  t: Target<S>,
  g: Grantee<P, R>,
) =>
  t.op({
    id: `${t.noun}.update${g.name}`,
    input: z.object({ ...t.where, ...g.param, ...PermissionRoleUpdateShape }),
    output: NoContentSchema,
    http: {
      route: `PATCH ${t.base}/permissions/${g.path}/{${g.paramName}}`,
      status: 204,
      operationId: `update${g.name}PermissionIn${t.name}`,
      summary: `Change ${g.whose} explicit role on ${t.on}`,
    },
  });

const deleteGrantee = <S extends z.ZodRawShape, P extends z.ZodRawShape, R extends z.ZodType>(
  t: Target<S>,
  g: Grantee<P, R>,
) =>
  t.op({
    id: `${t.noun}.delete${g.name}`,
    input: z.object({ ...t.where, ...g.param }),
    output: NoContentSchema,
    http: {
      route: `DELETE ${t.base}/permissions/${g.path}/{${g.paramName}}`,
      status: 205,
      operationId: `remove${g.name}From${t.name}`,
      summary: `Remove ${g.whose} explicit role on ${t.on}`,
    },
  });

const listAggregate = <S extends z.ZodRawShape>(t: Target<S>) =>
  t.op({
    id: `${t.noun}.listAggregate`,
    input: z.object({ ...t.where, ...PageQueryShape, role: aggregateRole }),
    output: listOf(UserContentPermissionSchema),
    http: {
      route: `GET ${t.base}/permissions/aggregate`,
      operationId: `listPermissionsAggregateIn${t.name}`,
      summary: `List every member who can access ${t.on}, with their effective role`,
    },
  });

const space: Target<{ spaceId: typeof spaceId }> = {
  op: spaceOp,
  noun: 'spacePermissions',
  base: '/spaces/{spaceId}',
  where: { spaceId },
  name: 'Space',
  on: 'a space',
};

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
export const listUserPermissionsInSpace = listGrantees(space, user);
export const listTeamPermissionsInSpace = listGrantees(space, team);
export const updateUserPermissionInSpace = updateGrantee(space, user);
export const updateTeamPermissionInSpace = updateGrantee(space, team);
export const removeUserFromSpace = deleteGrantee(space, user);
export const removeTeamFromSpace = deleteGrantee(space, team);
export const listPermissionsAggregateInSpace = listAggregate(space);

const collection: Target<{ collectionId: typeof collectionId }> = {
  op: operationsOf('content', { tags: ['collection-permissions'] }),
  noun: 'collectionPermissions',
  base: '/collections/{collectionId}',
  where: { collectionId },
  name: 'Collection',
  on: 'a collection',
};

export const inviteToCollection = collection.op({
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
export const listUserPermissionsInCollection = listGrantees(collection, user);
export const listTeamPermissionsInCollection = listGrantees(collection, team);
export const updateUserPermissionInCollection = updateGrantee(collection, user);
export const updateTeamPermissionInCollection = updateGrantee(collection, team);
export const removeUserFromCollection = deleteGrantee(collection, user);
export const removeTeamFromCollection = deleteGrantee(collection, team);
export const listPermissionsAggregateInCollection = listAggregate(collection);

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
