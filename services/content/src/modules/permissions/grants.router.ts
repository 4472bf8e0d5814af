import { ops } from '@quire/contracts';
import { permissionWriter } from '../../commands/permission-writer.ts';
import { implement, implementPrepared } from '../../trpc.ts';
import { loadExplicitGrant, loadGrants, loadInvitees, resourceIdOf } from './permission.loader.ts';
import { presentAggregate, presentTeamGrants, presentUserGrants } from './permission.presenter.ts';

/** GitBook's operations of explicit roles on a space and on a collection, by what they do. */
const GRANT_OPERATIONS = {
  space: {
    invite: ops.inviteToSpace,
    listUsers: ops.listUserPermissionsInSpace,
    listTeams: ops.listTeamPermissionsInSpace,
    updateUser: ops.updateUserPermissionInSpace,
    updateTeam: ops.updateTeamPermissionInSpace,
    removeUser: ops.removeUserFromSpace,
    removeTeam: ops.removeTeamFromSpace,
    aggregate: ops.listPermissionsAggregateInSpace,
  },
  collection: {
    invite: ops.inviteToCollection,
    listUsers: ops.listUserPermissionsInCollection,
    listTeams: ops.listTeamPermissionsInCollection,
    updateUser: ops.updateUserPermissionInCollection,
    updateTeam: ops.updateTeamPermissionInCollection,
    removeUser: ops.removeUserFromCollection,
    removeTeam: ops.removeTeamFromCollection,
    aggregate: ops.listPermissionsAggregateInCollection,
  },
};

/**
 * The procedures of explicit roles on a `kind` of content (GitBook's `inviteTo…`, `list…PermissionsIn…`, `update…`,
 * `remove…From…`), by what they do; the routers of spaces and collections mount them under GitBook's operation ids.
 */
export function grantProcedures(kind: keyof typeof GRANT_OPERATIONS) {
  const o: (typeof GRANT_OPERATIONS)[keyof typeof GRANT_OPERATIONS] = GRANT_OPERATIONS[kind];
  return {
    invite: implementPrepared(
      o.invite,
      async ({ input, ctx }) => {
        const target = await loadGrants(ctx, kind, resourceIdOf(input), 'managePermissions');
        await loadInvitees(ctx, target, input);
      },
      async ({ input, ctx }) => {
        const { resource } = await loadGrants(ctx, kind, resourceIdOf(input), 'managePermissions');
        await permissionWriter(ctx.em, { resource, users: input.users, teams: input.teams, role: input.role });
      },
    ),

    listUsers: implement(o.listUsers, async ({ input, ctx }) => {
      const { resource } = await loadGrants(ctx, kind, resourceIdOf(input), 'viewPermissions');
      return presentUserGrants(ctx, kind, resource.id, input);
    }),

    listTeams: implement(o.listTeams, async ({ input, ctx }) => {
      const { resource } = await loadGrants(ctx, kind, resourceIdOf(input), 'viewPermissions');
      return presentTeamGrants(ctx, kind, resource.id, resource.organizationId, input);
    }),

    updateUser: implement(o.updateUser, async ({ input, ctx }) => {
      const target = await loadGrants(ctx, kind, resourceIdOf(input), 'managePermissions');
      const principal = await loadExplicitGrant(ctx, target, { kind: 'user', id: input.userId });
      await permissionWriter(ctx.em, { resource: target.resource, ...principal, role: input.role });
    }),

    updateTeam: implement(o.updateTeam, async ({ input, ctx }) => {
      const target = await loadGrants(ctx, kind, resourceIdOf(input), 'managePermissions');
      const principal = await loadExplicitGrant(ctx, target, { kind: 'team', id: input.teamId });
      await permissionWriter(ctx.em, { resource: target.resource, ...principal, role: input.role });
    }),

    removeUser: implement(o.removeUser, async ({ input, ctx }) => {
      const { resource } = await loadGrants(ctx, kind, resourceIdOf(input), 'managePermissions');
      await permissionWriter(ctx.em, { resource, users: [input.userId], role: null });
    }),

    removeTeam: implement(o.removeTeam, async ({ input, ctx }) => {
      const { resource } = await loadGrants(ctx, kind, resourceIdOf(input), 'managePermissions');
      await permissionWriter(ctx.em, { resource, teams: [input.teamId], role: null });
    }),

    aggregate: implement(o.aggregate, async ({ input, ctx }) => {
      const { resource, roleOf } = await loadGrants(ctx, kind, resourceIdOf(input), 'viewPermissions');
      return presentAggregate(ctx, resource.organizationId, roleOf, input);
    }),
  };
}
