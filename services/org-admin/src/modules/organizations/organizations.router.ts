import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { organizationCreator } from '../../commands/organization-creator.ts';
import { organizationUpdater } from '../../commands/organization-updater.ts';
import { loadOrganizationFor } from './organization.loader.ts';
import {
  presentNewOrganization,
  presentOrganizationForCaller,
  presentOrganizationsForCaller,
} from './organization.presenter.ts';
import { organizationRepository } from './organization.repository.ts';

export const organizationProcedures = {
  listOrganizationsForAuthenticatedUser: implement(
    ops.listOrganizationsForAuthenticatedUser,
    async ({ input, ctx }) => {
      const page = await organizationRepository.pageForUser(ctx.em, ctx.actor.userId, input);
      return presentOrganizationsForCaller(ctx, page);
    },
  ),

  createOrganization: implement(ops.createOrganization, async ({ input, ctx }) => {
    const org = await organizationCreator(ctx.em, { title: input.title, adminUserId: ctx.actor.userId });
    return presentNewOrganization(ctx, org);
  }),

  getOrganizationById: implement(ops.getOrganizationById, async ({ input, ctx }) =>
    presentOrganizationForCaller(ctx, await loadOrganizationFor(ctx, input, 'view')),
  ),

  updateOrganizationById: implement(ops.updateOrganizationById, async ({ input, ctx }) => {
    const organization = await loadOrganizationFor(ctx, input, 'update');
    return presentOrganizationForCaller(ctx, await organizationUpdater(ctx.em, { ...input, organization }));
  }),
};
