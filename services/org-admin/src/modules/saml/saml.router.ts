import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { samlProviderCreator, samlProviderDeleter, samlProviderUpdater } from '../../commands/saml-provider-writer.ts';
import { loadIdentityProviderFor, loadIdentityProviders } from '../identity-providers/identity-provider.loader.ts';
import { assertOrganizationAction, loadOrganizationFor } from '../organizations/organization.loader.ts';
import { samlProviders, samlServiceUrls, samlStatus } from './saml.presenter.ts';
import { samlRepository } from './saml.repository.ts';

/** SAML providers (reading them included: they hold the identity provider's settings) are for organization admins. */
export const samlProcedures = {
  listSAMLProvidersInOrganizationById: implement(ops.listSAMLProvidersInOrganizationById, async ({ input, ctx }) => {
    const page = await loadIdentityProviders(ctx, samlRepository, input);
    return { ...page, items: await samlProviders.many(ctx, page.items) };
  }),

  createOrganizationSAMLProvider: implement(ops.createOrganizationSAMLProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    return samlProviders.one(ctx, await samlProviderCreator(ctx.em, input));
  }),

  getOrganizationSAMLProviderById: implement(ops.getOrganizationSAMLProviderById, async ({ input, ctx }) =>
    samlProviders.one(ctx, await loadIdentityProviderFor(ctx, samlRepository, input, input.samlProviderId)),
  ),

  updateOrganizationSAMLProvider: implement(ops.updateOrganizationSAMLProvider, async ({ input, ctx }) => {
    const provider = await loadIdentityProviderFor(ctx, samlRepository, input, input.samlProviderId);
    return samlProviders.one(ctx, await samlProviderUpdater(ctx.em, { ...input, provider }));
  }),

  deleteOrganizationSAMLProvider: implement(ops.deleteOrganizationSAMLProvider, async ({ input, ctx }) => {
    samlProviderDeleter(ctx.em, {
      provider: await loadIdentityProviderFor(ctx, samlRepository, input, input.samlProviderId),
    });
  }),

  /** The login options of an organization: its usable providers (members, guests included; GitBook's document secures it like every operation). */
  listSSOProviderLoginsInOrganization: implement(ops.listSSOProviderLoginsInOrganization, async ({ input, ctx }) => {
    await loadOrganizationFor(ctx, input, 'listSso');
    const providers = await samlRepository.allOf(ctx.em, input.organizationId);
    return {
      items: providers
        .filter((p) => samlStatus(p) === 'active')
        .map((p) => ({ id: p.id, label: p.label, startURL: samlServiceUrls(ctx.urls, p.id).startURL })),
    };
  }),
};
