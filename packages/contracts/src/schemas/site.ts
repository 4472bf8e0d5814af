import { z } from 'zod';
import { IdSchema, TimestampSchema, UrlSchema } from '../common.ts';
import { SpaceSchema } from './space.ts';
import { apiAndAppUrls, objectAndId, permissionsOf } from './shapes.ts';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SiteTypeSchema = z.enum(SITE_TYPES).describe('The type (plan) of the site');
export type SiteType = z.infer<typeof SiteTypeSchema>;

export const SiteVisibilitySchema = z
  .enum(['public', 'unlisted', 'share-link', 'visitor-auth'])
  .describe(
    'Who can reach the published site: `public` (anyone, indexed by search engines), `unlisted` (anyone, not indexed), `share-link` (anyone with a secret key in the URL), `visitor-auth` (anyone authenticated through a JWT)',
  );
export type SiteVisibility = z.infer<typeof SiteVisibilitySchema>;

export const SiteAgentsContextSchema = z
  .enum(['excluded', 'included'])
  .describe('Whether agents may read the site: `excluded` or `included`');
export type SiteAgentsContext = z.infer<typeof SiteAgentsContextSchema>;

export const SiteTitleSchema = z.string().min(2).max(128).describe('Title of the site (2..128)');
export const SiteBasenameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, `-` and `_`, starting with a letter or digit')
  .describe('Basename of the site in its published URL, e.g. `api` (1..100; unique in the organization)');
export const SiteHostnameSchema = z
  .string()
  .max(512)
  .regex(
    /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/,
    'a lowercase hostname with at least three labels, e.g. docs.example.com',
  )
  .describe(
    'Custom hostname of the site, e.g. docs.example.com; served once a DNS TXT record proves the organization controls it (`getCustomHostname`)',
  );

/**
 * GitBook's `CustomHostnameStatus` as Quire uses it: Quire proves ownership with a TXT record, not a CNAME, so
 * `dns_no_cname` says the TXT record is missing and `dns_wrong_cname` that it holds another value.
 */
export const CustomHostnameStatusSchema = z
  .enum(['dns_passed', 'dns_no_cname', 'dns_wrong_cname', 'internal_error'])
  .describe(
    'DNS check: `dns_passed` (the TXT record proves ownership; served), `dns_no_cname` (no TXT record found yet), `dns_wrong_cname` (a TXT record with another value), `internal_error` (the DNS lookup failed; tried again)',
  );
export type CustomHostnameStatus = z.infer<typeof CustomHostnameStatusSchema>;

export const CustomHostnameSchema = z
  .object({
    object: z.literal('custom-hostname'),
    hostname: SiteHostnameSchema,
    target: z
      .object({
        type: z.literal('site'),
        site: z.string().describe('Unique identifier for the site'),
      })
      .describe('SitePointer'),
    isActive: z.boolean().describe('Whether the hostname serves the site (its DNS ownership is proven)'),
    status: CustomHostnameStatusSchema,
    verification: z
      .object({
        type: z.literal('TXT'),
        name: z.string().describe('The DNS name of the record, `_quire-verification.<hostname>`'),
        value: z.string().describe('The value of the TXT record, `quire-verification=<token>`'),
      })
      .describe('The DNS record that proves the organization controls the hostname (Quire extension)'),
    checkedAt: z.iso.datetime().optional().describe('When the DNS was last checked (Quire extension)'),
    urls: z.object({ location: z.string().describe('URL of the custom hostname in the API') }),
  })
  .describe('CustomHostname');
export type CustomHostname = z.infer<typeof CustomHostnameSchema>;
export const SiteProxyOriginSchema = z
  .string()
  .max(512)
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'a host and path, e.g. example.com/docs')
  .describe('Proxy URL of the site, e.g. example.com/docs (max 512)');

export const SiteSectionTitleSchema = z.string().min(2).max(128).describe('Title of the section (2..128)');
export const SiteSectionDescriptionSchema = z.string().max(256).describe('Description of the section (max 256)');
export const SiteIconSchema = z.string().max(50).describe('Name of the icon, e.g. `gear` (max 50)');
export const SitePathSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, `-`, `_` and `.`, starting with a letter or digit');
export const SiteConditionSchema = z
  .string()
  .min(1)
  .max(1024)
  .describe(
    'Expression deciding whether the item is shown to the visitor (1..1024); it may only name attributes of the adaptive schema, as `visitor.claims.<path>`',
  );
export const ShareLinkNameSchema = z.string().max(50).describe('Name of the share link (max 50)');

export const SitePermissionsSchema = permissionsOf('What the caller may do with the site', {
  view: 'Can the caller view the site',
  access: 'Can the caller access the site in the application',
  edit: 'Can the caller change the site structure (sections, site spaces)',
  create: 'Can the caller change the site settings, structure, share links and publish it',
  admin: 'Can the caller delete the site',
  installIntegration: 'Can the caller install integrations on the site',
  viewAdaptiveSchema: 'Can the caller view the adaptive schema',
  editAdaptiveSchema: 'Can the caller change the adaptive schema',
});

export const SiteFeatureSchema = z
  .object({
    id: z.string().describe('The feature, e.g. `sites-adaptive-content`'),
    plan: SiteTypeSchema.describe('The plan the feature belongs to'),
    frozen: z.boolean().describe('A frozen feature is enabled but cannot be changed'),
  })
  .describe('SiteFeature');

/** Where `what` is published: only when the site is. */
const publishedUrl = (what: string) =>
  UrlSchema.optional().describe(`URL of the published ${what}; only when the site is published`);

export const SiteSchema = z
  .object({
    ...objectAndId('site', 'site'),
    type: SiteTypeSchema,
    title: z.string().describe('Title of the site'),
    hostname: z.string().optional().describe('Custom hostname of the site'),
    basename: z.string().optional().describe('Basename of the site in its published URL'),
    proxy: z
      .object({
        origin: z.string().describe('The proxy URL (host and path)'),
        target: UrlSchema.describe('Where requests at the origin are proxied to'),
      })
      .optional()
      .describe('The proxy of the site, when one is configured'),
    visibility: SiteVisibilitySchema,
    published: z.boolean().describe('Whether the site is live: reachable by the audience its `visibility` sets'),
    siteSpaces: z.number().int().describe('Count of site spaces (of live spaces)'),
    createdAt: TimestampSchema,
    adaptiveContent: z
      .object({ enabled: z.boolean().describe('Whether adaptive content is enabled') })
      .describe('Adaptive content settings'),
    agentsContext: SiteAgentsContextSchema,
    features: z.array(SiteFeatureSchema).describe('The features the site uses, with their plan'),
    permissions: SitePermissionsSchema,
    urls: apiAndAppUrls('site', { published: publishedUrl('site') }),
  })
  .describe('Site');
export type Site = z.infer<typeof SiteSchema>;

export const SiteSpaceSchema = z
  .object({
    ...objectAndId('site-space', 'site space'),
    path: z.string().describe('Path of the site space on the site (unique within its section, or the root)'),
    section: z.string().optional().describe('ID of the section the site space belongs to'),
    space: SpaceSchema.optional().describe('The space, as the caller sees it (absent when the caller cannot see it)'),
    title: z.string().describe('Title of the site space (the title of its space)'),
    default: z.boolean().describe('Whether this is the default site space of its section (or of the root)'),
    condition: z.string().optional().describe('Expression deciding whether the site space is shown to the visitor'),
    urls: z.object({ published: publishedUrl('site space') }),
  })
  .describe('SiteSpace');
export type SiteSpace = z.infer<typeof SiteSpaceSchema>;

export const SiteSectionSchema = z
  .object({
    ...objectAndId('site-section', 'section'),
    title: z.string().describe('Title of the section'),
    description: z.string().optional().describe('Description of the section'),
    default: z.boolean().describe('Whether this is the default section of the site'),
    path: z.string().describe('Path of the section on the site (unique among the sections)'),
    condition: z.string().optional().describe('Expression deciding whether the section is shown to the visitor'),
    icon: z.string().optional().describe('Name of the icon of the section'),
    sectionGroup: z.string().optional().describe('ID of the section group the section belongs to'),
    siteSpaces: z.array(SiteSpaceSchema).describe('The site spaces (variants) of the section, in order'),
    urls: z.object({ published: publishedUrl('section') }),
  })
  .describe('SiteSection');
export type SiteSection = z.infer<typeof SiteSectionSchema>;

export const SiteSectionGroupTitleSchema = z.string().min(1).max(100).describe('Title of the section group (1..100)');

export interface SiteSectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  sections: SiteSection[];
  sectionGroup?: string | undefined;
  draft: boolean;
  children: (SiteSection | SiteSectionGroup)[];
  icon?: string | undefined;
}

export const SiteSectionGroupSchema: z.ZodType<SiteSectionGroup> = z
  .object({
    ...objectAndId('site-section-group', 'section group'),
    title: z.string().describe('Title of the section group'),
    sections: z
      .array(SiteSectionSchema)
      .describe('Deprecated: the sections directly in the group, in order (use `children`)'),
    sectionGroup: z.string().optional().describe('ID of the parent section group this group belongs to'),
    draft: z.boolean().describe('Whether the group is a draft (always false: Quire has no draft groups)'),
    children: z
      .array(z.lazy(() => z.union([SiteSectionSchema, SiteSectionGroupSchema])))
      .describe('The sections and section groups in the group, in order'),
    icon: z.string().optional().describe('Name of the icon of the section group'),
  })
  .describe('SiteSectionGroup');

export const SiteStructureSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('sections'),
      structure: z
        .array(z.union([SiteSectionSchema, SiteSectionGroupSchema]))
        .describe('The sections and section groups at the root of the site, in order'),
    }),
    z.object({
      type: z.literal('siteSpaces'),
      structure: z.array(SiteSpaceSchema).describe('The site spaces, in order'),
    }),
  ])
  .describe(
    'SiteStructure: the sections of the site with their site spaces, or its site spaces when it has no section',
  );
export type SiteStructure = z.infer<typeof SiteStructureSchema>;

export const ShareLinkSchema = z
  .object({
    ...objectAndId('share-link', 'share link'),
    createdAt: TimestampSchema,
    name: z.string().optional().describe('Name of the share link'),
    active: z.boolean().describe('Whether the link opens the site'),
    urls: z.object({
      published: UrlSchema.optional().describe(
        'URL of the published site with the secret key (`?share=<key>`); only when the site is published',
      ),
    }),
  })
  .describe('ShareLink');
export type ShareLink = z.infer<typeof ShareLinkSchema>;

/** A JSON Schema (draft-07) object: its rules are checked by the sites service (ajv plus the adaptive rules). */
export const SiteAdaptiveJsonSchema = z
  .record(z.string(), z.unknown())
  .describe(
    'JSON Schema draft-07 of the visitor claims: `type: object`, `additionalProperties: false`, `properties` holding an optional `unsigned` object (unsigned claims of the site visitor) and other properties; every attribute is of type boolean with a `description`',
  );

export const SiteAdaptiveSchemaSchema = z
  .object({
    object: z.literal('site-adaptive-schema').describe('Always `site-adaptive-schema`'),
    jsonSchema: SiteAdaptiveJsonSchema,
    updatedAt: TimestampSchema.describe('When the schema was last set'),
  })
  .describe('SiteAdaptiveSchema');
export type SiteAdaptiveSchema = z.infer<typeof SiteAdaptiveSchemaSchema>;

export const SiteTemplateConditionSchema = z
  .object({
    description: z.string().describe('What the condition tests (the attribute description)'),
    condition: z.string().describe('The condition, e.g. `visitor.claims.unsigned.isBetaUser`'),
  })
  .describe('SiteAdaptiveTemplateCondition');

/** A sibling in the site structure, for `sortSiteStructure`. */
export const SiteStructurePointerSchema = z
  .object({
    type: z.enum(['site-space', 'site-section', 'site-section-group']).describe('The kind of item'),
    id: IdSchema.describe('Unique identifier of the site space, section or section group'),
  })
  .describe('SiteStructureItemPointer');
export type SiteStructurePointer = z.infer<typeof SiteStructurePointerSchema>;

/** Exactly one of `before` or `after`, or neither (last among the siblings). */
const positionOf = <T extends z.ZodType>(pointer: T, name: string) =>
  z
    .object({
      before: pointer.optional().describe('Put the item just before this sibling'),
      after: pointer.optional().describe('Put the item just after this sibling'),
    })
    .refine((p) => p.before === undefined || p.after === undefined, {
      message: 'give `before` or `after`, not both',
      path: ['after'],
    })
    .describe(name);

export const SiteStructurePositionSchema = positionOf(
  SiteStructurePointerSchema,
  'SiteStructureItemMovePosition: where to put the item among its siblings; last when neither is given',
);
export const SiteSectionPositionSchema = positionOf(
  z
    .object({ type: z.literal('site-section'), siteSection: IdSchema.describe('Unique identifier of the section') })
    .describe('SiteSectionPointer'),
  'SiteSectionMovePosition: where to put the section; last when neither is given',
);
export const SiteSpacePositionSchema = positionOf(
  z
    .object({ type: z.literal('site-space'), siteSpace: IdSchema.describe('Unique identifier of the site space') })
    .describe('SiteSpacePointer'),
  'SiteSpaceMovePosition: where to put the site space among its siblings; last when neither is given',
);
export const SiteSectionGroupPositionSchema = positionOf(
  z
    .object({
      type: z.enum(['site-section', 'site-section-group']),
      id: IdSchema.describe('Unique identifier of the section or section group'),
    })
    .describe('SiteSectionGroupPointer'),
  'SiteSectionGroupMovePosition: where to put the group among the sections and groups of its level; last when neither is given',
);
export type SitePosition = { before?: SiteStructurePointer | undefined; after?: SiteStructurePointer | undefined };

/** Every section of a structure's items (groups opened, at any depth), in navigation order. */
export function sectionsOfStructure(items: readonly (SiteSection | SiteSectionGroup)[]): SiteSection[] {
  return items.flatMap((i) => (i.object === 'site-section' ? [i] : sectionsOfStructure(i.children)));
}
