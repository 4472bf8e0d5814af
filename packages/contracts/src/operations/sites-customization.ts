import { queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import {
  SiteCustomizationInputShape,
  SiteCustomizationSettingsSchema,
  SiteSpaceCustomizationOverrideShape,
} from '../schemas/site-customization.ts';
import { singletonOps } from './resources.ts';
import { SITE, siteSpaceId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['sites'] });

const unmasked = queryBoolean('Deprecated, ignored: every caller who may read the site reads its whole customization')
  .optional()
  .describe('Deprecated, ignored');

const customization = singletonOps(op, {
  noun: 'siteCustomizations',
  in: SITE,
  path: 'customization',
  item: SiteCustomizationSettingsSchema,
});

export const getSiteCustomizationById = customization.get(
  'getSiteCustomizationById',
  'The customization of a site: what was set, the defaults for the rest',
  { unmasked },
);

export const updateSiteCustomizationById = customization.update(
  'updateSiteCustomizationById',
  'Replace the customization of a site (a field left out answers its default)',
  SiteCustomizationInputShape,
  'PUT',
);

const siteSpaceCustomization = singletonOps(op, {
  noun: 'siteSpaceCustomizations',
  in: { route: `${SITE.route}/site-spaces/{siteSpaceId}`, params: { ...SITE.params, siteSpaceId } },
  path: 'customization',
  item: SiteCustomizationSettingsSchema,
});

export const getSiteSpaceCustomizationById = siteSpaceCustomization.get(
  'getSiteSpaceCustomizationById',
  "The customization a site space's pages show: the site's, with the site space's overrides",
  { unmasked },
);

export const overrideSiteSpaceCustomizationById = siteSpaceCustomization.upsert(
  'overrideSiteSpaceCustomizationById',
  "Override fields of the site's customization on a site space (null removes an override)",
  SiteSpaceCustomizationOverrideShape,
);

export const deleteSiteSpaceCustomizationById = siteSpaceCustomization.delete(
  'deleteSiteSpaceCustomizationById',
  "Remove every override of a site space: its pages show the site's customization",
  205,
);
