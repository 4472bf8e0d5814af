import { ops } from '@quire/contracts';
import { permissionWriter } from '../../commands/permission-writer.ts';
import { implement, implementPrepared } from '../../trpc.ts';
import { loadGrants, loadExplicitGrant, loadInvitees } from './permission.loader.ts';
import { presentAggregate, presentTeamGrants, presentUserGrants } from './permission.presenter.ts';
import { loadTeamSpaceCounts } from './team-spaces.ts';

/** Explicit roles on a space: GitBook's `inviteToSpace`, `list…PermissionsInSpace`, `update…`, `remove…FromSpace`. */
export const spacePermissionProcedures = {
  inviteToSpace: implementPrepared(
    ops.inviteToSpace,
    async ({ input, ctx }) => {
      const target = await loadGrants(ctx, 'space', input.spaceId, 'managePermissions');
      await loadInvitees(ctx, target, input);
    },
    async ({ input, ctx }) => {
      const { resource } = await loadGrants(ctx, 'space', input.spaceId, 'managePermissions');
      await permissionWriter(ctx.em, {
        resource,
        users: input.users,
        teams: input.teams,
        role: input.role,
      });
    },
  ),

  listUserPermissionsInSpace: implement(ops.listUserPermissionsInSpace, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'space', input.spaceId, 'viewPermissions');
    return presentUserGrants(ctx, 'space', resource.id, input);
  }),

  listTeamPermissionsInSpace: implement(ops.listTeamPermissionsInSpace, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'space', input.spaceId, 'viewPermissions');
    return presentTeamGrants(ctx, 'space', resource.id, resource.organizationId, input);
  }),

  updateUserPermissionInSpace: implement(ops.updateUserPermissionInSpace, async ({ input, ctx }) => {
    const target = await loadGrants(ctx, 'space', input.spaceId, 'managePermissions');
    const principal = await loadExplicitGrant(ctx, target, { kind: 'user', id: input.userId });
    await permissionWriter(ctx.em, { resource: target.resource, ...principal, role: input.role });
  }),

  updateTeamPermissionInSpace: implement(ops.updateTeamPermissionInSpace, async ({ input, ctx }) => {
    const target = await loadGrants(ctx, 'space', input.spaceId, 'managePermissions');
    const principal = await loadExplicitGrant(ctx, target, { kind: 'team', id: input.teamId });
    await permissionWriter(ctx.em, { resource: target.resource, ...principal, role: input.role });
  }),

  removeUserFromSpace: implement(ops.removeUserFromSpace, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'space', input.spaceId, 'managePermissions');
    await permissionWriter(ctx.em, { resource, users: [input.userId], role: null });
  }),

  removeTeamFromSpace: implement(ops.removeTeamFromSpace, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'space', input.spaceId, 'managePermissions');
    await permissionWriter(ctx.em, { resource, teams: [input.teamId], role: null });
  }),

  listPermissionsAggregateInSpace: implement(ops.listPermissionsAggregateInSpace, async ({ input, ctx }) => {
    const { resource, roleOf } = await loadGrants(ctx, 'space', input.spaceId, 'viewPermissions');
    return presentAggregate(ctx, resource.organizationId, roleOf, input);
  }),

  countTeamSpaces: implement(ops.countTeamSpaces, ({ input, ctx }) => loadTeamSpaceCounts(ctx.em, input)),
};
