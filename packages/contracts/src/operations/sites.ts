import { z } from 'zod';
import { IdSchema, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import { PublishedContentSiteSchema } from '../schemas/site-customization.ts';
import {
  SiteAdaptiveJsonSchema,
  SiteAdaptiveSchemaSchema,
  SiteAgentsContextSchema,
  SiteBasenameSchema,
  CustomHostnameSchema,
  SiteHostnameSchema,
  SiteProxyOriginSchema,
  SiteSchema,
  SiteTemplateConditionSchema,
  SiteTitleSchema,
  SiteTypeSchema,
  SiteVisibilitySchema,
} from '../schemas/site.ts';
import { ORGANIZATION, resourceOps, singletonOps } from './resources.ts';
import { SITE, shareKey, siteId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['sites'] });

const sites = resourceOps(op, { noun: 'sites', in: ORGANIZATION, param: { siteId }, item: SiteSchema });

export const listSites = sites.list('listSites', 'List the sites of an organization (newest first)', {
  space: IdSchema.optional().describe('Only the sites showing this space'),
  title: z.string().max(128).optional().describe('Only the sites whose title contains this text (case-insensitive)'),
  published: queryBoolean('Only the published (true) or unpublished (false) sites').optional(),
});

export const createSite = sites.create('createSite', 'Create a site (members with the `create` role)', {
  type: SiteTypeSchema.optional().describe('The type of the site (`basic` by default)'),
  title: SiteTitleSchema.optional(),
  visibility: SiteVisibilitySchema.optional().describe('Who can reach the published site (`public` by default)'),
  spaces: z
    .union([z.array(IdSchema).max(100), z.literal('new')])
    .optional()
    .describe(
      'IDs of spaces of the organization to add as site spaces (in order, the first the default), or `new` to create a new space for the site',
    ),
});

export const getSiteById = sites.get('getSiteById', 'Get a site by its ID');

export const updateSiteById = sites.update('updateSiteById', 'Update the settings of a site', {
  title: SiteTitleSchema.optional(),
  visibility: SiteVisibilitySchema.optional(),
  basename: SiteBasenameSchema.optional(),
  hostname: SiteHostnameSchema.nullable()
    .optional()
    .describe(
      'Custom hostname of the site; served once its DNS TXT record is verified (`getCustomHostname`), and a hostname another site has verified cannot be claimed (409); null removes it',
    ),
  adaptiveContent: z.object({ enabled: z.boolean().describe('Whether adaptive content is enabled') }).optional(),
  agentsContext: SiteAgentsContextSchema.optional(),
  defaultSiteSpace: IdSchema.optional().describe(
    'ID of the site space to make the default of its level (the root, or its section)',
  ),
  defaultSiteSection: IdSchema.optional().describe('ID of the section to make the default section'),
  proxy: SiteProxyOriginSchema.nullable()
    .optional()
    .describe('Proxy URL of the site (e.g. example.com/docs); null removes it'),
});

export const deleteSiteById = sites.delete(
  'deleteSiteById',
  'Delete a site with its sections, site spaces and share links (organization admins)',
  205,
);

export const publishSite = op({
  id: 'sites.publish',
  input: z.object({ organizationId, siteId }),
  output: SiteSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/publish',
    operationId: 'publishSite',
    summary: 'Publish a site: its visibility audience can reach it',
  },
});

export const unpublishSite = op({
  id: 'sites.unpublish',
  input: z.object({ organizationId, siteId }),
  output: SiteSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/unpublish',
    operationId: 'unpublishSite',
    summary: 'Unpublish a site',
  },
});

export const getPublishedContentSite = op({
  id: 'sites.getPublished',
  access: 'reader',
  input: z.object({ organizationId, siteId, shareKey }),
  output: PublishedContentSiteSchema,
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/published',
    operationId: 'getPublishedContentSite',
    summary:
      'The published site and its structure, as its audience reaches it (404 when unpublished; a `share-link` site needs an active `shareKey`)',
  },
});

const adaptiveSchema = singletonOps(op, {
  noun: 'siteAdaptiveSchemas',
  in: SITE,
  path: 'adaptive-schema',
  item: SiteAdaptiveSchemaSchema,
});

export const getSiteAdaptiveSchema = adaptiveSchema.get(
  'getSiteAdaptiveSchema',
  'The visitor claims schema of a site (an empty object schema until one is set)',
);

export const updateSiteAdaptiveSchema = adaptiveSchema.update(
  'updateSiteAdaptiveSchema',
  'Set the visitor claims schema of a site (validated as JSON Schema draft-07 and against the adaptive rules)',
  { jsonSchema: SiteAdaptiveJsonSchema },
  'PUT',
);

export const listSiteAdaptiveTemplateConditions = op({
  id: 'siteAdaptiveSchemas.listTemplateConditions',
  input: z.object({ organizationId, siteId }),
  output: z.object({ items: z.array(SiteTemplateConditionSchema) }),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions',
    operationId: 'listSiteAdaptiveTemplateConditions',
    summary: 'One condition per attribute of the adaptive schema (`visitor.claims.<path>`)',
  },
});

const hostname = SiteHostnameSchema.describe('The custom hostname, e.g. docs.example.com');

export const getCustomHostname = op({
  id: 'customHostnames.get',
  input: z.object({ hostname }),
  output: CustomHostnameSchema,
  http: {
    route: 'GET /custom-hostnames/{hostname}',
    operationId: 'getCustomHostname',
    summary: 'Get a custom hostname of a site of yours: its DNS status and the TXT record proving ownership',
  },
});

export const dnsRevalidateCustomHostname = op({
  id: 'customHostnames.update',
  input: z.object({ hostname }),
  output: z.void(),
  http: {
    route: 'PATCH /custom-hostnames/{hostname}',
    status: 204,
    operationId: 'dnsRevalidateCustomHostname',
    summary: 'Check the DNS of a custom hostname now (409 when another site has proven it)',
  },
});

export const removeCustomHostname = op({
  id: 'customHostnames.delete',
  input: z.object({ hostname }),
  output: z.void(),
  http: {
    route: 'DELETE /custom-hostnames/{hostname}',
    status: 204,
    operationId: 'removeCustomHostname',
    summary: 'Remove a custom hostname from its site',
  },
});
