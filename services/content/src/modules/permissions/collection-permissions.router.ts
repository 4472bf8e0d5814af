import { ops } from '@quire/contracts';
import { permissionWriter } from '../../commands/permission-writer.ts';
import { implement, implementPrepared } from '../../trpc.ts';
import { loadGrants, loadExplicitGrant, loadInvitees } from './permission.loader.ts';
import { presentAggregate, presentTeamGrants, presentUserGrants } from './permission.presenter.ts';

/**
 * Explicit roles on a collection: GitBook's `inviteToCollection`, `list…PermissionsInCollection`, `update…`,
 * `remove…FromCollection`. A collection's grants reach the content inheriting from it.
 */
export const collectionPermissionProcedures = {
  inviteToCollection: implementPrepared(
    ops.inviteToCollection,
    async ({ input, ctx }) => {
      const target = await loadGrants(ctx, 'collection', input.collectionId, 'managePermissions');
      await loadInvitees(ctx, target, input);
    },
    async ({ input, ctx }) => {
      const { resource } = await loadGrants(ctx, 'collection', input.collectionId, 'managePermissions');
      await permissionWriter(ctx.em, {
        resource,
        users: input.users,
        teams: input.teams,
        role: input.role,
      });
    },
  ),

  listUserPermissionsInCollection: implement(ops.listUserPermissionsInCollection, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'collection', input.collectionId, 'viewPermissions');
    return presentUserGrants(ctx, 'collection', resource.id, input);
  }),

  listTeamPermissionsInCollection: implement(ops.listTeamPermissionsInCollection, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'collection', input.collectionId, 'viewPermissions');
    return presentTeamGrants(ctx, 'collection', resource.id, resource.organizationId, input);
  }),

  updateUserPermissionInCollection: implement(ops.updateUserPermissionInCollection, async ({ input, ctx }) => {
    const target = await loadGrants(ctx, 'collection', input.collectionId, 'managePermissions');
    const principal = await loadExplicitGrant(ctx, target, { kind: 'user', id: input.userId });
    await permissionWriter(ctx.em, { resource: target.resource, ...principal, role: input.role });
  }),

  updateTeamPermissionInCollection: implement(ops.updateTeamPermissionInCollection, async ({ input, ctx }) => {
    const target = await loadGrants(ctx, 'collection', input.collectionId, 'managePermissions');
    const principal = await loadExplicitGrant(ctx, target, { kind: 'team', id: input.teamId });
    await permissionWriter(ctx.em, { resource: target.resource, ...principal, role: input.role });
  }),

  removeUserFromCollection: implement(ops.removeUserFromCollection, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'collection', input.collectionId, 'managePermissions');
    await permissionWriter(ctx.em, { resource, users: [input.userId], role: null });
  }),

  removeTeamFromCollection: implement(ops.removeTeamFromCollection, async ({ input, ctx }) => {
    const { resource } = await loadGrants(ctx, 'collection', input.collectionId, 'managePermissions');
    await permissionWriter(ctx.em, { resource, teams: [input.teamId], role: null });
  }),

  listPermissionsAggregateInCollection: implement(ops.listPermissionsAggregateInCollection, async ({ input, ctx }) => {
    const { resource, roleOf } = await loadGrants(ctx, 'collection', input.collectionId, 'viewPermissions');
    return presentAggregate(ctx, resource.organizationId, roleOf, input);
  }),
};
