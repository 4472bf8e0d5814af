import { ops } from '@quire/contracts';
import { oidcProviderCreator, oidcProviderDeleter, oidcProviderUpdater } from '../../commands/oidc-provider-writer.ts';
import { implement } from '../../trpc.ts';
import { loadIdentityProviderFor, loadIdentityProviders } from '../identity-providers/identity-provider.loader.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';
import { oidcProviders } from './oidc.presenter.ts';
import { oidcRepository } from './oidc.repository.ts';

/** OpenID Connect providers (Quire only): for organization admins, like SAML providers. */
export const oidcProcedures = {
  listOIDCProvidersInOrganization: implement(ops.listOIDCProvidersInOrganization, async ({ input, ctx }) => {
    const page = await loadIdentityProviders(ctx, oidcRepository, input);
    return { ...page, items: await oidcProviders.many(ctx, page.items) };
  }),
  createOrganizationOIDCProvider: implement(ops.createOrganizationOIDCProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    return oidcProviders.one(ctx, await oidcProviderCreator(ctx.em, ctx.config, input));
  }),
  getOrganizationOIDCProviderById: implement(ops.getOrganizationOIDCProviderById, async ({ input, ctx }) =>
    oidcProviders.one(ctx, await loadIdentityProviderFor(ctx, oidcRepository, input, input.oidcProviderId)),
  ),
  updateOrganizationOIDCProvider: implement(ops.updateOrganizationOIDCProvider, async ({ input, ctx }) => {
    const provider = await loadIdentityProviderFor(ctx, oidcRepository, input, input.oidcProviderId);
    return oidcProviders.one(ctx, await oidcProviderUpdater(ctx.em, ctx.config, { ...input, provider }));
  }),
  deleteOrganizationOIDCProvider: implement(ops.deleteOrganizationOIDCProvider, async ({ input, ctx }) => {
    oidcProviderDeleter(ctx.em, {
      provider: await loadIdentityProviderFor(ctx, oidcRepository, input, input.oidcProviderId),
    });
  }),
};
