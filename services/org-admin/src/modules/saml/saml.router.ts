import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { samlProviderCreator, samlProviderDeleter, samlProviderUpdater } from '../../commands/saml-provider-writer.ts';
import { assertOrganizationAction, loadOrganizationFor } from '../organizations/organization.loader.ts';
import { presentSamlProviders, samlServiceUrls, samlStatus } from './saml.presenter.ts';
import { samlRepository } from './saml.repository.ts';

/** SAML providers (reading them included: they hold the identity provider's settings) are for organization admins. */
export const samlProcedures = {
  listSAMLProvidersInOrganizationById: implement(ops.listSAMLProvidersInOrganizationById, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    const page = await samlRepository.page(ctx.em, input.organizationId, input);
    return { ...page, items: await presentSamlProviders(ctx, page.items) };
  }),

  createOrganizationSAMLProvider: implement(ops.createOrganizationSAMLProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    return (await presentSamlProviders(ctx, [await samlProviderCreator(ctx.em, input)]))[0]!;
  }),

  getOrganizationSAMLProviderById: implement(ops.getOrganizationSAMLProviderById, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    return (
      await presentSamlProviders(ctx, [
        await samlRepository.findOrThrow(ctx.em, input.organizationId, input.samlProviderId),
      ])
    )[0]!;
  }),

  updateOrganizationSAMLProvider: implement(ops.updateOrganizationSAMLProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    const provider = await samlRepository.findOrThrow(ctx.em, input.organizationId, input.samlProviderId);
    return (await presentSamlProviders(ctx, [await samlProviderUpdater(ctx.em, { ...input, provider })]))[0]!;
  }),

  deleteOrganizationSAMLProvider: implement(ops.deleteOrganizationSAMLProvider, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageSaml');
    samlProviderDeleter(ctx.em, {
      provider: await samlRepository.findOrThrow(ctx.em, input.organizationId, input.samlProviderId),
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
