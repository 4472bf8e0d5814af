import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import {
  siteCustomizationSetter,
  siteSpaceCustomizationDeleter,
  siteSpaceCustomizationOverrider,
} from '../../commands/customization-commands.ts';
import { customizationOf } from './customization.ts';
import { loadSiteCustomizationFor, loadSiteSpaceCustomizationFor } from './customization.loader.ts';
import { presentSiteCustomization, presentSiteSpaceCustomization } from './customization.presenter.ts';

export const customizationProcedures = {
  getSiteCustomizationById: implement(ops.getSiteCustomizationById, async ({ input, ctx }) => {
    const { site } = await loadSiteCustomizationFor(ctx, input, 'view');
    return presentSiteCustomization(site);
  }),

  /** A full replacement: what the request leaves out answers its default. */
  updateSiteCustomizationById: implement(ops.updateSiteCustomizationById, async ({ input, ctx }) => {
    const { site } = await loadSiteCustomizationFor(ctx, input, 'update');
    return presentSiteCustomization(siteCustomizationSetter(ctx.em, { site, settings: customizationOf(input) }));
  }),

  getSiteSpaceCustomizationById: implement(ops.getSiteSpaceCustomizationById, async ({ input, ctx }) => {
    const { site, siteSpace } = await loadSiteSpaceCustomizationFor(ctx, input, 'view');
    return presentSiteSpaceCustomization(site, siteSpace);
  }),

  overrideSiteSpaceCustomizationById: implement(ops.overrideSiteSpaceCustomizationById, async ({ input, ctx }) => {
    const { site, siteSpace } = await loadSiteSpaceCustomizationFor(ctx, input, 'update');
    siteSpaceCustomizationOverrider(ctx.em, { site, siteSpace, patch: customizationOf(input) });
    return presentSiteSpaceCustomization(site, siteSpace);
  }),

  deleteSiteSpaceCustomizationById: implement(ops.deleteSiteSpaceCustomizationById, async ({ input, ctx }) => {
    siteSpaceCustomizationDeleter(ctx.em, await loadSiteSpaceCustomizationFor(ctx, input, 'update'));
  }),
};
