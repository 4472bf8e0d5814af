import { z } from 'zod';
import { TimestampSchema, UrlSchema } from '../common.ts';
import { apiAndAppUrls, objectAndId } from './shapes.ts';
import { SiteSchema } from './site.ts';
import { SpaceSchema } from './space.ts';

/** Limits of a publication (README, "Integrations"). */
export const INTEGRATION_SCRIPT_MAX_CHARS = 512 * 1024;
export const INTEGRATION_ICON_MAX_BYTES = 256 * 1024;
export const INTEGRATION_PREVIEW_MAX_BYTES = 512 * 1024;
export const INTEGRATION_SECRETS_MAX = 50;

/** The longest base64 text of `bytes` bytes (padding included). */
const base64Chars = (bytes: number) => Math.ceil(bytes / 3) * 4;
export const base64Image = (maxBytes: number, what: string) =>
  z
    .string()
    .min(1)
    .max(base64Chars(maxBytes), `at most ${maxBytes} bytes once decoded`)
    .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'must be base64')
    .describe(`Base64 content of the ${what} (PNG, JPEG, GIF, WebP or SVG; at most ${maxBytes} bytes decoded)`);

/** Name pattern of an integration (its id in URLs). */
export const IntegrationNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-zA-Z0-9-_.]+$/, 'letters, digits, `-`, `_` and `.`')
  .describe('Name of the integration (letters, digits, `-`, `_`, `.`; max 100)');

export const INTEGRATION_CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'marketing',
  'visitor-auth',
  'other',
] as const;
export const IntegrationCategorySchema = z
  .enum(INTEGRATION_CATEGORIES)
  .describe('Marketplace category of an integration');
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const IntegrationTargetSchema = z
  .enum(INTEGRATION_TARGETS)
  .describe('Where the integration can be installed: `all`, `site`, `space` or `organization`');
export const IntegrationVisibilitySchema = z
  .enum(['public', 'private', 'unlisted'])
  .describe(
    '`public`: listed for everyone; `private`: only members of the owner organization; `unlisted`: reachable by name only',
  );
export type IntegrationVisibility = z.infer<typeof IntegrationVisibilitySchema>;
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;
export const IntegrationScopeSchema = z.enum(INTEGRATION_SCOPES).describe('A permission granted to the integration');
export const IntegrationRuntimeSchema = z.enum(['v1', 'v2']).describe('Runtime version of the integration script');

export const IntegrationTitleSchema = z.string().min(2).max(30).describe('Title of the integration (2..30)');
export const IntegrationDescriptionSchema = z.string().max(100).describe('Description of the integration (max 100)');
export const IntegrationSummarySchema = z
  .string()
  .max(2048)
  .describe('Long form markdown summary of the integration (max 2048)');

/** One property of a configuration form: GitBook's JSON-Schema-like shape. */
const propertyBase = {
  title: z.string().min(2).max(50).optional().describe('Title of the property (2..50)'),
  description: z.string().max(100).optional().describe('Description of the property (max 100)'),
};
export const IntegrationConfigurationPropertySchema = z
  .discriminatedUnion('type', [
    z.object({
      ...propertyBase,
      type: z.literal('string'),
      default: z.string().max(2048).optional().describe('Default value'),
      completion_url: z.string().max(2048).optional().describe('URL called for auto-completion suggestions'),
      enum: z.array(z.string().max(256)).min(1).max(100).optional().describe('The only values allowed'),
    }),
    z.object({ ...propertyBase, type: z.literal('number'), default: z.number().optional().describe('Default value') }),
    z.object({
      ...propertyBase,
      type: z.literal('boolean'),
      default: z.boolean().optional().describe('Default value'),
    }),
    z.object({
      ...propertyBase,
      type: z.literal('button'),
      callback_url: z.string().max(2048).describe('URL called when the button is pressed'),
      button_text: z.string().max(100).describe('Text of the button'),
    }),
  ])
  .describe('A configuration property: `string`, `number`, `boolean` or `button`');

export const IntegrationConfigurationSchema = z
  .union([
    z.object({
      properties: z
        .record(z.string().min(1).max(100), IntegrationConfigurationPropertySchema)
        .describe('Properties by name'),
      required: z.array(z.string().min(1).max(100)).max(100).optional().describe('Names of the required properties'),
    }),
    z.object({
      componentId: z.string().min(1).max(100).describe('ID of the ContentKit component defined in the integration'),
    }),
  ])
  .describe('A configuration form: a JSON-Schema-like `{properties, required}` or a ContentKit component');
export type IntegrationConfiguration = z.infer<typeof IntegrationConfigurationSchema>;

export const IntegrationConfigurationsSchema = z
  .object({
    account: IntegrationConfigurationSchema.optional().describe(
      'Configuration of an installation (organization level)',
    ),
    space: IntegrationConfigurationSchema.optional().describe('Configuration of a space installation'),
    site: IntegrationConfigurationSchema.optional().describe('Configuration of a site installation'),
  })
  .describe('Configuration forms of the integration, by level');
export type IntegrationConfigurations = z.infer<typeof IntegrationConfigurationsSchema>;

/** What a block and a content source of an integration both declare (`what`: `block` or `source`). */
const componentOf = (what: string) => ({
  id: z.string().min(1).max(100).describe(`Unique ID of the ${what} in the integration`),
  title: z.string().min(2).max(40).describe('Short descriptive title (2..40)'),
  description: z.string().max(150).optional().describe('Long descriptive text (max 150)'),
  icon: z.string().max(2048).optional().describe(`URL of the icon of the ${what}`),
});

export const IntegrationBlockSchema = z
  .object({
    ...componentOf('block'),
    urlUnfurl: z
      .array(z.string().min(1).max(2048))
      .max(50)
      .optional()
      .describe('URL patterns converted into this block'),
    markdown: z
      .object({ codeblock: z.string().max(100), body: z.string().max(100) })
      .optional()
      .describe('Format of the block as a markdown code block'),
  })
  .describe('A custom block defined by the integration');

export const IntegrationContentSourceSchema = z
  .object({
    ...componentOf('source'),
    configuration: z
      .object({ componentId: z.string().min(1).max(100) })
      .describe('ContentKit component configuring the source'),
  })
  .describe('A content source provided by the integration');

export const IntegrationExternalLinkSchema = z.object({
  url: z.url().max(2048).describe('URL of the link'),
  label: z.string().min(1).max(100).describe('Label of the link'),
});

export const IntegrationContentSecurityPolicySchema = z
  .union([z.string().max(4096), z.record(z.string().max(64), z.string().max(2048))])
  .describe('Content security policy for the integration scripts and blocks: a header value or directives by name');

/** The organization that owns an integration (its details: `GET /v1/orgs/{organizationId}`, for its members). */
export const IntegrationOwnerSchema = z
  .object({
    ...objectAndId('organization', 'organization'),
    urls: apiAndAppUrls('organization'),
  })
  .describe('The organization owning the integration');

export const IntegrationSchema = z
  .object({
    object: z.literal('integration').describe('Always `integration`'),
    name: IntegrationNameSchema,
    version: z
      .number()
      .int()
      .describe('Version of the integration: 1 at the first publication, +1 at each republication'),
    title: z.string().describe('Title of the integration'),
    description: z.string().describe('Description of the integration'),
    summary: z.string().optional().describe('Long form markdown summary'),
    previewImages: z
      .array(UrlSchema)
      .describe('URLs of the images showcasing the integration (signed links, valid one hour)'),
    target: IntegrationTargetSchema,
    verified: z.boolean().describe('Verified by the instance team (never on a self-hosted instance)'),
    visibility: IntegrationVisibilitySchema,
    scopes: z.array(IntegrationScopeSchema).describe('Permissions granted to the integration'),
    categories: z.array(IntegrationCategorySchema).describe('Marketplace categories'),
    blocks: z.array(IntegrationBlockSchema).describe('Custom blocks'),
    contentSources: z.array(IntegrationContentSourceSchema).describe('Content sources'),
    configurations: IntegrationConfigurationsSchema,
    externalLinks: z.array(IntegrationExternalLinkSchema).describe('External links of the integration'),
    owner: IntegrationOwnerSchema,
    urls: apiAndAppUrls('integration', {
      icon: UrlSchema.optional().describe('URL of the icon (a signed link, valid one hour)'),
    }),
    permissions: z
      .object({
        admin: z.boolean().describe('Can the caller republish and unpublish the integration'),
        install: z.boolean().describe('Can the caller install the integration (an organization admin)'),
      })
      .describe('What the caller may do with the integration'),
    contentSecurityPolicy: IntegrationContentSecurityPolicySchema.optional(),
  })
  .describe('Integration');
export type Integration = z.infer<typeof IntegrationSchema>;

export const IntegrationInstallationStatusSchema = z
  .enum(['active', 'pending', 'paused'])
  .describe('Status of the installation');
export const IntegrationSelectionSchema = z.enum(['all', 'selected']);
export const IntegrationExternalIdsSchema = z
  .array(z.string().min(1).max(256))
  .max(5)
  .describe('External IDs assigned by the integration (at most 5)');
export const IntegrationInstallationConfigurationSchema = z
  .record(z.string().max(100), z.unknown())
  .describe('Configuration of the installation, checked against the integration `account` configuration');

export const IntegrationInstallationSchema = z
  .object({
    ...objectAndId('integration-installation', 'installation'),
    status: IntegrationInstallationStatusSchema,
    space_selection: IntegrationSelectionSchema.describe('Whether the installation manages all spaces or a selection'),
    site_selection: IntegrationSelectionSchema.describe('Whether the installation manages all sites or a selection'),
    spaces: z.number().int().describe('Count of spaces the integration is installed on (its space installations)'),
    configuration: IntegrationInstallationConfigurationSchema,
    externalIds: IntegrationExternalIdsSchema,
    target: z
      .object({ organization: z.string().describe('The organization the integration is installed in') })
      .describe('Target of the installation'),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    urls: apiAndAppUrls('installation'),
  })
  .describe('Installation of an integration in an organization');
export type IntegrationInstallation = z.infer<typeof IntegrationInstallationSchema>;

/** What an installation on a space and one on a site have (GitBook's `IntegrationContentInstallationBase`). */
const contentInstallationOf = (what: 'space' | 'site') => ({
  integration: IntegrationNameSchema.describe('Unique name identifier of the integration'),
  installation: z.string().describe('ID of the integration installation'),
  status: IntegrationInstallationStatusSchema,
  configuration: IntegrationInstallationConfigurationSchema.describe(
    `Configuration of the integration for this ${what}`,
  ),
  externalIds: IntegrationExternalIdsSchema,
  urls: z
    .object({ location: UrlSchema.describe(`URL of the integration's ${what} installation in the API`) })
    .describe(
      `URLs of the ${what} installation (no \`publicEndpoint\`: Quire's integrations run no code, so they have no endpoint)`,
    ),
});

export const IntegrationSpaceInstallationSchema = z
  .object({
    ...contentInstallationOf('space'),
    space: z
      .union([z.string(), SpaceSchema])
      .describe('The space the integration is installed on: its ID, or the space when `extended` is true'),
  })
  .describe('Installation of an integration on a space');
export type IntegrationSpaceInstallation = z.infer<typeof IntegrationSpaceInstallationSchema>;

export const IntegrationSiteInstallationSchema = z
  .object({
    ...contentInstallationOf('site'),
    site: z
      .union([z.string(), SiteSchema])
      .describe('The site the integration is installed on: its ID, or the site when `extended` is true'),
  })
  .describe('Installation of an integration on a site');
export type IntegrationSiteInstallation = z.infer<typeof IntegrationSiteInstallationSchema>;

export const SpaceIntegrationBlocksSchema = z
  .array(
    z.object({
      name: IntegrationNameSchema.describe('Unique named identifier for the integration'),
      blocks: z.array(IntegrationBlockSchema).describe('Its blocks'),
    }),
  )
  .describe('The blocks of the integrations installed for the space, by integration');
