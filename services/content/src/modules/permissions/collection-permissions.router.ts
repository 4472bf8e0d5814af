import { ops } from '@quire/contracts';
import { assertPrincipalsIn, DomainError } from '@quire/kit';
import { implement, implementPrepared } from '../../trpc.ts';
import { permissionWriter } from '../../commands/permission-writer.ts';
import { loadCollectionFor } from '../collections/collection.loader.ts';
import { collectionPolicy } from '../collections/collection.policy.ts';
import { grantRepository, type PrincipalKind } from './grant.repository.ts';
import { presentAggregate, presentTeamGrants, presentUserGrants } from './permission.presenter.ts';

const resourceOf = (c: { id: string; organizationId: string }) => ({
  kind: 'collection' as const,
  id: c.id,
  organizationId: c.organizationId,
});

/**
 * Explicit roles on a collection: GitBook's `inviteToCollection`, `list…PermissionsInCollection`, `update…`,
 * `remove…FromCollection`. A collection's grants reach the content inheriting from it.
 */
export const collectionPermissionProcedures = {
  inviteToCollection: implementPrepared(
    ops.inviteToCollection,
    async ({ input, ctx }) => {
      const { collection } = await loadCollectionFor(ctx, input.collectionId, 'managePermissions');
      if (input.role !== null) await assertPrincipalsIn(ctx, collection.organizationId, input);
    },
    async ({ input, ctx }) => {
      const { collection } = await loadCollectionFor(ctx, input.collectionId, 'managePermissions');
      await permissionWriter(ctx.em, {
        resource: resourceOf(collection),
        users: input.users,
        teams: input.teams,
        role: input.role,
      });
    },
  ),

  listUserPermissionsInCollection: implement(ops.listUserPermissionsInCollection, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'viewPermissions');
    return presentUserGrants(ctx, 'collection', collection.id, input);
  }),

  listTeamPermissionsInCollection: implement(ops.listTeamPermissionsInCollection, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'viewPermissions');
    return presentTeamGrants(ctx, 'collection', collection.id, collection.organizationId, input);
  }),

  updateUserPermissionInCollection: implement(ops.updateUserPermissionInCollection, async ({ input, ctx }) => {
    await updateGrant(ctx, input.collectionId, { kind: 'user', id: input.userId }, input.role);
  }),

  updateTeamPermissionInCollection: implement(ops.updateTeamPermissionInCollection, async ({ input, ctx }) => {
    await updateGrant(ctx, input.collectionId, { kind: 'team', id: input.teamId }, input.role);
  }),

  removeUserFromCollection: implement(ops.removeUserFromCollection, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'managePermissions');
    await permissionWriter(ctx.em, { resource: resourceOf(collection), users: [input.userId], role: null });
  }),

  removeTeamFromCollection: implement(ops.removeTeamFromCollection, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'managePermissions');
    await permissionWriter(ctx.em, { resource: resourceOf(collection), teams: [input.teamId], role: null });
  }),

  listPermissionsAggregateInCollection: implement(ops.listPermissionsAggregateInCollection, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollectionFor(ctx, input.collectionId, 'viewPermissions');
    return presentAggregate(ctx, collection.organizationId, (member) => collectionPolicy.role(member, facts), input);
  }),
};

/** `update…PermissionInCollection`: changes an explicit role the principal has (404 when it has none); null removes it. */
async function updateGrant(
  ctx: Parameters<typeof loadCollectionFor>[0],
  collectionId: string,
  principal: { kind: PrincipalKind; id: string },
  role: Parameters<typeof permissionWriter>[1]['role'],
): Promise<void> {
  const { collection } = await loadCollectionFor(ctx, collectionId, 'managePermissions');
  if ((await grantRepository.roleOf(ctx.em, 'collection', collection.id, principal)) === null)
    throw new DomainError('not_found', `The ${principal.kind} has no explicit role on the collection`);
  await permissionWriter(ctx.em, {
    resource: resourceOf(collection),
    [principal.kind === 'user' ? 'users' : 'teams']: [principal.id],
    role,
  });
}
