import { ops } from '@quire/contracts';
import { oidcProviderCreator, oidcProviderDeleter, oidcProviderUpdater } from '../../commands/oidc-provider-writer.ts';
import { implement } from '../../trpc.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';
import { presentOidcProviders } from './oidc.presenter.ts';
import { oidcRepository } from './oidc.repository.ts';

/** OpenID Connect providers (Quire only): for organization admins, like SAML providers. */
export const oidcProcedures = {
  listOIDCProvidersInOrganization: implement(ops.listOIDCProvidersInOrganization, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    const page = await oidcRepository.page(ctx.em, input.organizationId, input);
    return { ...page, items: await presentOidcProviders(ctx, page.items) };
  }),
  createOrganizationOIDCProvider: implement(ops.createOrganizationOIDCProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    return (await presentOidcProviders(ctx, [await oidcProviderCreator(ctx.em, ctx.config, input)]))[0]!;
  }),
  getOrganizationOIDCProviderById: implement(ops.getOrganizationOIDCProviderById, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    return (
      await presentOidcProviders(ctx, [
        await oidcRepository.findOrThrow(ctx.em, input.organizationId, input.oidcProviderId),
      ])
    )[0]!;
  }),
  updateOrganizationOIDCProvider: implement(ops.updateOrganizationOIDCProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    const provider = await oidcRepository.findOrThrow(ctx.em, input.organizationId, input.oidcProviderId);
    return (
      await presentOidcProviders(ctx, [await oidcProviderUpdater(ctx.em, ctx.config, { ...input, provider })])
    )[0]!;
  }),
  deleteOrganizationOIDCProvider: implement(ops.deleteOrganizationOIDCProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    oidcProviderDeleter(ctx.em, {
      provider: await oidcRepository.findOrThrow(ctx.em, input.organizationId, input.oidcProviderId),
    });
  }),
};
