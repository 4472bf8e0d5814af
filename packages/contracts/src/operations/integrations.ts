import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import {
  base64Image,
  INTEGRATION_ICON_MAX_BYTES,
  INTEGRATION_PREVIEW_MAX_BYTES,
  INTEGRATION_SCRIPT_MAX_CHARS,
  INTEGRATION_SECRETS_MAX,
  IntegrationBlockSchema,
  IntegrationCategorySchema,
  IntegrationConfigurationsSchema,
  IntegrationContentSecurityPolicySchema,
  IntegrationContentSourceSchema,
  IntegrationDescriptionSchema,
  IntegrationExternalIdsSchema,
  IntegrationExternalLinkSchema,
  IntegrationInstallationConfigurationSchema,
  IntegrationInstallationSchema,
  IntegrationNameSchema,
  IntegrationRuntimeSchema,
  IntegrationSchema,
  IntegrationScopeSchema,
  IntegrationSelectionSchema,
  IntegrationSiteInstallationSchema,
  IntegrationSpaceInstallationSchema,
  IntegrationSummarySchema,
  IntegrationTargetSchema,
  IntegrationTitleSchema,
  IntegrationVisibilitySchema,
  SpaceIntegrationBlocksSchema,
} from '../schemas/integration.ts';
import { organizationId, spaceId } from '../params.ts';
import { ORGANIZATION, resourceOps, SPACE } from './resources.ts';
import { SITE, siteId } from './sites-params.ts';

const op = operationsOf('integrations', { tags: ['integrations'] });

const integrationName = IntegrationNameSchema;
const installationId = IdSchema.describe('Identifier of the installation');

/** The filters of a list of integrations (GitBook's `integrationSearch…` query parameters). */
const IntegrationFiltersShape = {
  search: z
    .string()
    .max(100)
    .optional()
    .describe('Only integrations whose name or title contains this text (case-insensitive)'),
  category: IntegrationCategorySchema.optional().describe('Only integrations listed in this category'),
  blockDomain: z
    .string()
    .max(100)
    .regex(/^[a-zA-Z0-9-_.]+$/, 'a domain name')
    .optional()
    .describe("Only integrations with a block unfurling URLs of this domain (host of a block's `urlUnfurl` pattern)"),
  blocks: queryBoolean('true: only integrations with blocks; false: only integrations without').optional(),
  contentSources: queryBoolean(
    'true: only integrations with content sources; false: only integrations without',
  ).optional(),
  owner: IdSchema.optional().describe('Only integrations owned by this organization'),
  scope: IntegrationScopeSchema.optional().describe('Only integrations asking for this scope'),
  target: IntegrationTargetSchema.optional().describe(
    'Only integrations installable at this target (`all` ones count for every target)',
  ),
};

export const listIntegrations = op({
  id: 'integrations.list',
  input: z.object({ ...PageQueryShape, ...IntegrationFiltersShape }),
  output: listOf(IntegrationSchema),
  http: {
    route: 'GET /integrations',
    operationId: 'listIntegrations',
    summary:
      'List the integrations the caller can see: public ones, and those of its organizations (unlisted ones are reached by name)',
  },
});

export const getIntegrationByName = op({
  id: 'integrations.get',
  input: z.object({ integrationName }),
  output: IntegrationSchema,
  http: {
    route: 'GET /integrations/{integrationName}',
    operationId: 'getIntegrationByName',
    summary: 'Get an integration by its name',
  },
});

export const publishIntegration = op({
  id: 'integrations.publish',
  input: z.object({
    integrationName,
    runtime: IntegrationRuntimeSchema.default('v1'),
    icon: base64Image(INTEGRATION_ICON_MAX_BYTES, 'icon').optional(),
    title: IntegrationTitleSchema,
    description: IntegrationDescriptionSchema,
    summary: IntegrationSummarySchema.optional(),
    previewImages: z
      .array(base64Image(INTEGRATION_PREVIEW_MAX_BYTES, 'image'))
      .max(3)
      .optional()
      .describe('Images showcasing the integration (at most 3)'),
    visibility: IntegrationVisibilitySchema.optional().describe('Who sees the integration (`public` when omitted)'),
    target: IntegrationTargetSchema.optional().describe('Where it can be installed (`all` when omitted)'),
    scopes: z.array(IntegrationScopeSchema).max(50).describe('Permissions the integration needs'),
    categories: z.array(IntegrationCategorySchema).max(10).optional().describe('Marketplace categories'),
    blocks: z.array(IntegrationBlockSchema).max(50).optional().describe('Custom blocks'),
    contentSources: z.array(IntegrationContentSourceSchema).max(50).optional().describe('Content sources'),
    externalLinks: z.array(IntegrationExternalLinkSchema).max(5).optional().describe('External links (at most 5)'),
    configurations: IntegrationConfigurationsSchema.optional(),
    script: z
      .string()
      .min(1)
      .max(INTEGRATION_SCRIPT_MAX_CHARS)
      .describe(`Content of the script (at most ${INTEGRATION_SCRIPT_MAX_CHARS} characters)`),
    organization: z
      .string()
      .min(1)
      .max(100)
      .describe('ID (or hostname) of the organization publishing the integration; its admins publish'),
    secrets: z
      .record(z.string().min(1).max(100), z.string().max(4096))
      .refine((s) => Object.keys(s).length <= INTEGRATION_SECRETS_MAX, `at most ${INTEGRATION_SECRETS_MAX} secrets`)
      .optional()
      .describe(
        'Secrets of the integration (stored encrypted, never returned); the previous ones are kept when omitted',
      ),
    contentSecurityPolicy: IntegrationContentSecurityPolicySchema.optional(),
  }),
  output: IntegrationSchema,
  http: {
    route: 'POST /integrations/{integrationName}',
    operationId: 'publishIntegration',
    summary: 'Publish an integration, or republish it (a new version) as an admin of its organization',
  },
});

export const unpublishIntegration = op({
  id: 'integrations.unpublish',
  input: z.object({ integrationName }),
  output: z.void(),
  http: {
    route: 'DELETE /integrations/{integrationName}',
    status: 204,
    operationId: 'unpublishIntegration',
    summary: 'Unpublish an integration: it and all its installations are deleted',
  },
});

export const installIntegration = op({
  id: 'integrationInstallations.install',
  input: z.object({
    integrationName,
    organization: IdSchema.describe('The organization to install the integration in (its admins install)'),
  }),
  output: IntegrationInstallationSchema,
  http: {
    route: 'POST /integrations/{integrationName}/installations',
    status: 201,
    operationId: 'installIntegration',
    summary: 'Install an integration in an organization',
    tags: ['integrations'],
  },
});

const installations = resourceOps(op, {
  noun: 'integrationInstallations',
  in: { route: '/integrations/{integrationName}', params: { integrationName } },
  path: 'installations',
  param: { installationId },
  item: IntegrationInstallationSchema,
});

export const listIntegrationInstallations = installations.list(
  'listIntegrationInstallations',
  'List the installations of an integration: all of them for its owner admins, those of their organizations for other admins',
  {
    externalId: z.string().min(1).max(256).optional().describe('Only installations carrying this external ID'),
  },
);

export const getIntegrationInstallationById = installations.get(
  'getIntegrationInstallationById',
  'Get an installation',
);

export const updateIntegrationInstallation = installations.update(
  'updateIntegrationInstallation',
  "Update an installation's configuration (checked against the integration's `account` configuration), external IDs or selections",
  {
    externalIds: IntegrationExternalIdsSchema.optional(),
    configuration: IntegrationInstallationConfigurationSchema.optional(),
    space_selection: IntegrationSelectionSchema.optional().describe(
      'Whether the installation manages all spaces or a selection',
    ),
    site_selection: IntegrationSelectionSchema.optional().describe(
      'Whether the installation manages all sites or a selection',
    ),
  },
);

export const uninstallIntegration = installations.delete(
  'uninstallIntegration',
  'Uninstall an integration from an organization',
  204,
);

export const listOrganizationIntegrations = op({
  id: 'integrations.listInOrg',
  input: z.object({ organizationId, ...PageQueryShape, ...IntegrationFiltersShape }),
  output: listOf(IntegrationSchema),
  http: {
    route: `GET ${ORGANIZATION.route}/integrations`,
    operationId: 'listOrganizationIntegrations',
    summary: 'List the integrations installed in an organization (for its members)',
  },
});

export const listSpaceIntegrations = op({
  id: 'integrations.listInSpace',
  input: z.object({ spaceId, search: IntegrationFiltersShape.search }),
  output: listOf(IntegrationSchema),
  http: {
    route: `GET ${SPACE.route}/integrations`,
    operationId: 'listSpaceIntegrations',
    summary:
      "List the integrations installed for a space (its organization's installations for all spaces, or that name it), for those who can view it",
  },
});

export const listSpaceIntegrationsBlocks = op({
  id: 'integrationBlocks.listInSpace',
  input: z.object({ spaceId }),
  output: SpaceIntegrationBlocksSchema,
  http: {
    route: `GET ${SPACE.route}/integration-blocks`,
    operationId: 'listSpaceIntegrationsBlocks',
    summary: 'List the blocks of the integrations installed for a space (what its editor can insert)',
  },
});

const extended = queryBoolean('true: each item carries the space object; false (default): its ID').optional();

const spaceInstallations = resourceOps(op, {
  noun: 'integrationSpaceInstallations',
  in: {
    route: '/integrations/{integrationName}/installations/{installationId}',
    params: { integrationName, installationId },
  },
  path: 'spaces',
  param: { spaceId },
  item: IntegrationSpaceInstallationSchema,
});

export const listIntegrationInstallationSpaces = spaceInstallations.list(
  'listIntegrationInstallationSpaces',
  'List the spaces an installation is installed on (for its admins)',
  { extended },
);

export const installIntegrationOnSpace = spaceInstallations.create(
  'installIntegrationOnSpace',
  "Install an integration on a space of its installation's organization: the installation's space selection becomes `selected`",
  { space: spaceId.describe('ID of the space to install the integration on') },
);

export const getIntegrationSpaceInstallation = spaceInstallations.get(
  'getIntegrationSpaceInstallation',
  'Get the installation of an integration on a space',
  { extended },
);

export const updateIntegrationSpaceInstallation = spaceInstallations.update(
  'updateIntegrationSpaceInstallation',
  "Update a space installation's configuration (checked against the integration's `space` configuration) or external IDs",
  {
    externalIds: IntegrationExternalIdsSchema.optional(),
    configuration: IntegrationInstallationConfigurationSchema.optional(),
  },
);

export const uninstallIntegrationFromSpace = spaceInstallations.delete(
  'uninstallIntegrationFromSpace',
  'Uninstall an integration from a space',
  205,
);

export const listSiteIntegrations = op({
  id: 'integrations.listInSite',
  input: z.object({ organizationId, siteId, search: IntegrationFiltersShape.search }),
  output: listOf(IntegrationSchema),
  http: {
    route: `GET ${SITE.route}/integrations`,
    operationId: 'listSiteIntegrations',
    summary:
      "List the integrations installed for a site (its organization's installations for all sites, or that name it), for those who can view it",
  },
});

const siteInstallations = resourceOps(op, {
  noun: 'integrationSiteInstallations',
  in: {
    route: '/integrations/{integrationName}/installations/{installationId}',
    params: { integrationName, installationId },
  },
  path: 'sites',
  param: { siteId },
  item: IntegrationSiteInstallationSchema,
});

export const listIntegrationInstallationSites = siteInstallations.list(
  'listIntegrationInstallationSites',
  'List the sites an installation is installed on (for its admins)',
  { extended: queryBoolean('true: each item carries the site object; false (default): its ID').optional() },
);

export const installIntegrationOnSite = siteInstallations.create(
  'installIntegrationOnSite',
  "Install an integration on a site of its installation's organization: the installation's site selection becomes `selected`",
  { siteId: siteId.describe('ID of the site to install the integration on') },
);

export const getIntegrationSiteInstallation = siteInstallations.get(
  'getIntegrationSiteInstallation',
  'Get the installation of an integration on a site',
  { extended: queryBoolean('true: the site object; false (default): its ID').optional() },
);

export const updateIntegrationSiteInstallation = siteInstallations.update(
  'updateIntegrationSiteInstallation',
  "Update a site installation's configuration (checked against the integration's `site` configuration) or external IDs",
  {
    externalIds: IntegrationExternalIdsSchema.optional(),
    configuration: IntegrationInstallationConfigurationSchema.optional(),
  },
);

export const uninstallIntegrationFromSite = siteInstallations.delete(
  'uninstallIntegrationFromSite',
  'Uninstall an integration from a site',
  205,
);
