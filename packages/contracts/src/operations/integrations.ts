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
  IntegrationSummarySchema,
  IntegrationTargetSchema,
  IntegrationTitleSchema,
  IntegrationVisibilitySchema,
} from '../schemas/integration.ts';
import { resourceOps } from './resources.ts';

const op = operationsOf('integrations', { tags: ['integrations'] });

const integrationName = IntegrationNameSchema;
const installationId = IdSchema.describe('Identifier of the installation');

export const listIntegrations = op({
  id: 'integrations.list',
  input: z.object({
    ...PageQueryShape,
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
  }),
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
