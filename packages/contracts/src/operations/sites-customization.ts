import { z } from 'zod';
import { NoContentSchema, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import {
  SiteCustomizationInputShape,
  SiteCustomizationSettingsSchema,
  SiteSpaceCustomizationOverrideShape,
} from '../schemas/site-customization.ts';
import { siteId, siteSpaceId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['sites'] });

const unmasked = queryBoolean('Deprecated, ignored: every caller who may read the site reads its whole customization')
  .optional()
  .describe('Deprecated, ignored');

export const getSiteCustomizationById = op({
  id: 'siteCustomizations.get',
  input: z.object({ organizationId, siteId, unmasked }),
  output: SiteCustomizationSettingsSchema,
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/customization',
    operationId: 'getSiteCustomizationById',
    summary: 'The customization of a site: what was set, the defaults for the rest',
  },
});

export const updateSiteCustomizationById = op({
  id: 'siteCustomizations.update',
  input: z.object({ organizationId, siteId, ...SiteCustomizationInputShape }),
  output: SiteCustomizationSettingsSchema,
  http: {
    route: 'PUT /orgs/{organizationId}/sites/{siteId}/customization',
    operationId: 'updateSiteCustomizationById',
    summary: 'Replace the customization of a site (a field left out answers its default)',
  },
});

export const getSiteSpaceCustomizationById = op({
  id: 'siteSpaceCustomizations.get',
  input: z.object({ organizationId, siteId, siteSpaceId, unmasked }),
  output: SiteCustomizationSettingsSchema,
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
    operationId: 'getSiteSpaceCustomizationById',
    summary: "The customization a site space's pages show: the site's, with the site space's overrides",
  },
});

export const overrideSiteSpaceCustomizationById = op({
  id: 'siteSpaceCustomizations.upsert',
  input: z.object({ organizationId, siteId, siteSpaceId, ...SiteSpaceCustomizationOverrideShape }),
  output: SiteCustomizationSettingsSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
    operationId: 'overrideSiteSpaceCustomizationById',
    summary: "Override fields of the site's customization on a site space (null removes an override)",
  },
});

export const deleteSiteSpaceCustomizationById = op({
  id: 'siteSpaceCustomizations.delete',
  input: z.object({ organizationId, siteId, siteSpaceId }),
  output: NoContentSchema,
  http: {
    route: 'DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
    status: 205,
    operationId: 'deleteSiteSpaceCustomizationById',
    summary: "Remove every override of a site space: its pages show the site's customization",
  },
});
