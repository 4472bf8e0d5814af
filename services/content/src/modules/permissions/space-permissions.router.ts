import { ops } from '@quire/contracts';
import { assertPrincipalsIn, DomainError } from '@quire/kit';
import { implement, implementPrepared } from '../../trpc.ts';
import { permissionWriter } from '../../commands/permission-writer.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { spacePolicy } from '../spaces/space.policy.ts';
import { grantRepository, type PrincipalKind } from './grant.repository.ts';
import { presentAggregate, presentTeamGrants, presentUserGrants } from './permission.presenter.ts';
import { loadTeamSpaceCounts } from './team-spaces.ts';

const resourceOf = (space: { id: string; organizationId: string }) => ({
  kind: 'space' as const,
  id: space.id,
  organizationId: space.organizationId,
});

/** Explicit roles on a space: GitBook's `inviteToSpace`, `list…PermissionsInSpace`, `update…`, `remove…FromSpace`. */
export const spacePermissionProcedures = {
  inviteToSpace: implementPrepared(
    ops.inviteToSpace,
    async ({ input, ctx }) => {
      const { space } = await loadSpaceFor(ctx, input.spaceId, 'managePermissions');
      if (input.role !== null) await assertPrincipalsIn(ctx, space.organizationId, input);
    },
    async ({ input, ctx }) => {
      const { space } = await loadSpaceFor(ctx, input.spaceId, 'managePermissions');
      await permissionWriter(ctx.em, {
        resource: resourceOf(space),
        users: input.users,
        teams: input.teams,
        role: input.role,
      });
    },
  ),

  listUserPermissionsInSpace: implement(ops.listUserPermissionsInSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'viewPermissions');
    return presentUserGrants(ctx, 'space', space.id, input);
  }),

  listTeamPermissionsInSpace: implement(ops.listTeamPermissionsInSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'viewPermissions');
    return presentTeamGrants(ctx, 'space', space.id, space.organizationId, input);
  }),

  updateUserPermissionInSpace: implement(ops.updateUserPermissionInSpace, async ({ input, ctx }) => {
    await updateGrant(ctx, input.spaceId, { kind: 'user', id: input.userId }, input.role);
  }),

  updateTeamPermissionInSpace: implement(ops.updateTeamPermissionInSpace, async ({ input, ctx }) => {
    await updateGrant(ctx, input.spaceId, { kind: 'team', id: input.teamId }, input.role);
  }),

  removeUserFromSpace: implement(ops.removeUserFromSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'managePermissions');
    await permissionWriter(ctx.em, { resource: resourceOf(space), users: [input.userId], role: null });
  }),

  removeTeamFromSpace: implement(ops.removeTeamFromSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'managePermissions');
    await permissionWriter(ctx.em, { resource: resourceOf(space), teams: [input.teamId], role: null });
  }),

  listPermissionsAggregateInSpace: implement(ops.listPermissionsAggregateInSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'viewPermissions');
    return presentAggregate(ctx, space.organizationId, (member) => spacePolicy.role(member, facts), input);
  }),

  countTeamSpaces: implement(ops.countTeamSpaces, ({ input, ctx }) => loadTeamSpaceCounts(ctx.em, input)),
};

/** `update…PermissionInSpace`: changes an explicit role the principal has (404 when it has none); null removes it. */
async function updateGrant(
  ctx: Parameters<typeof loadSpaceFor>[0],
  spaceId: string,
  principal: { kind: PrincipalKind; id: string },
  role: Parameters<typeof permissionWriter>[1]['role'],
): Promise<void> {
  const { space } = await loadSpaceFor(ctx, spaceId, 'managePermissions');
  if ((await grantRepository.roleOf(ctx.em, 'space', space.id, principal)) === null)
    throw new DomainError('not_found', `The ${principal.kind} has no explicit role on the space`);
  await permissionWriter(ctx.em, {
    resource: resourceOf(space),
    [principal.kind === 'user' ? 'users' : 'teams']: [principal.id],
    role,
  });
}
