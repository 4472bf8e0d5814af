import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import {
  loadOrganizationIntegrations,
  loadSiteIntegrations,
  loadSpaceIntegrations,
} from './installed-integrations.loader.ts';
import { presentIntegration, presentIntegrationBlocks } from './integration.presenter.ts';

/** The integrations installed in an organization, for a space and for a site (what members see and editors insert). */
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

  listSiteIntegrations: implement(ops.listSiteIntegrations, async ({ input, ctx }) => {
    const list = await loadSiteIntegrations(ctx, input.organizationId, input.siteId, { search: input.search });
    return { ...list, items: await Promise.all(list.items.map((i) => presentIntegration(ctx, i))) };
  }),

  listSpaceIntegrationsBlocks: implement(ops.listSpaceIntegrationsBlocks, async ({ input, ctx }) =>
    presentIntegrationBlocks((await loadSpaceIntegrations(ctx, input.spaceId)).items),
  ),
};
