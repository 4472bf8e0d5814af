import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement, type UserContext } from '../../trpc.ts';
import { organizationCreator } from '../../commands/organization-creator.ts';
import { organizationUpdater } from '../../commands/organization-updater.ts';
import { Organization, type IOrganization } from './organization.entity.ts';
import { callerOrganizationPermissions, organizationPermissions, organizationPolicy } from './organization.policy.ts';
import { presentOrganization } from './organization.presenter.ts';
import { organizationRepository } from './organization.repository.ts';

/** An organization as the caller sees it (one query for `ownTeam`). */
async function present(ctx: UserContext, org: IOrganization) {
  const ownsTeam = (await organizationRepository.withOwnedTeams(ctx.em, ctx.actor.userId, org.id)).has(org.id);
  return presentOrganization(ctx, org, callerOrganizationPermissions(ctx.actor, org.id, ownsTeam));
}

export const organizationProcedures = {
  listOrganizationsForAuthenticatedUser: implement(ops.listOrganizationsForAuthenticatedUser, async ({ input, ctx }) => {
    const ids = await organizationRepository.idsForUser(ctx.em, ctx.actor.userId);
    const owned = await organizationRepository.withOwnedTeams(ctx.em, ctx.actor.userId);
    return paginate(ctx.em, Organization, { id: { $in: ids } }, { createdAt: 'asc', id: 'asc' }, input, (o) =>
      presentOrganization(ctx, o, callerOrganizationPermissions(ctx.actor, o.id, owned.has(o.id))),
    );
  }),

  createOrganization: implement(ops.createOrganization, async ({ input, ctx }) => {
    const org = await organizationCreator(ctx.em, { title: input.title, adminUserId: ctx.actor.userId });
    // The caller's actor predates the organization: it is its admin.
    return presentOrganization(ctx, org, organizationPermissions('admin', false));
  }),

  getOrganizationById: implement(ops.getOrganizationById, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'view');
    return present(ctx, await organizationRepository.findOrThrow(ctx.em, input.organizationId));
  }),

  updateOrganizationById: implement(ops.updateOrganizationById, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'update');
    const organization = await organizationRepository.findOrThrow(ctx.em, input.organizationId);
    return present(ctx, await organizationUpdater(ctx.em, { ...input, organization }));
  }),
};
