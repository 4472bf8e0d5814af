import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadOrganizationIntegrations, loadSpaceIntegrations } from './installed-integrations.loader.ts';
import { presentIntegration, presentIntegrationBlocks } from './integration.presenter.ts';

/** The integrations installed in an organization and for a space (what members see and their editors insert). */
export const installedIntegrationProcedures = {
  listOrganizationIntegrations: implement(ops.listOrganizationIntegrations, async ({ input, ctx }) => {
    const { organizationId, page, limit, ...filters } = input;
    const list = await loadOrganizationIntegrations(ctx, organizationId, filters, { page, limit });
    return { ...list, items: await Promise.all(list.items.map((i) => presentIntegration(ctx, i))) };
  }),

  listSpaceIntegrations: implement(ops.listSpaceIntegrations, async ({ input, ctx }) => {
    const list = await loadSpaceIntegrations(ctx, input.spaceId, { search: input.search });
    return { ...list, items: await Promise.all(list.items.map((i) => presentIntegration(ctx, i))) };
  }),

  listSpaceIntegrationsBlocks: implement(ops.listSpaceIntegrationsBlocks, async ({ input, ctx }) =>
    presentIntegrationBlocks((await loadSpaceIntegrations(ctx, input.spaceId)).items),
  ),
};
