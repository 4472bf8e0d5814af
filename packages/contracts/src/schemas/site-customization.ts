import { z } from 'zod';
import { CODE_THEMES } from '../code-themes.ts';
import { TimestampSchema, UrlSchema } from '../common.ts';
import { SiteSchema, SiteStructureSchema, SiteTitleSchema } from './site.ts';
import { TRANSLATION_LANGUAGES } from './translation.ts';

/**
 * GitBook's site customization (`SiteCustomizationSettings`), field for field. Quire adds bounds GitBook leaves
 * open (array lengths, string lengths) so one customization stays small: see `CUSTOMIZATION_LIMITS`.
 */
export const CUSTOMIZATION_LIMITS = {
  /** Most bytes of the JSON of a site's customization, or of a site space's overrides. */
  jsonBytes: 64 * 1024,
  headerLinks: 20,
  footerGroups: 10,
  /** Links of one header item or one footer group. */
  links: 20,
  fontFaces: 20,
  fontSources: 10,
  text: 512,
} as const;

const TranslationLanguageSchema = z.enum(TRANSLATION_LANGUAGES).describe('TranslationLanguage');
const localized = (max: number, name: string) =>
  z
    .partialRecord(TranslationLanguageSchema, z.string().max(max))
    .describe(`${name}: localized values keyed by locale (max ${max} characters each)`);
export const LocalizedString128Schema = localized(128, 'LocalizedString128');
const LocalizedString64Schema = localized(64, 'LocalizedString64');
const LocalizedStringSchema = localized(CUSTOMIZATION_LIMITS.text, 'LocalizedString');

/** A hex colour: the only colour form that reaches the published site's CSS. */
export const ColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'a hex colour, e.g. #346DDB')
  .describe('Color: a hex colour (#rgb or #rrggbb)');
export const CustomizationThemedColorSchema = z
  .object({ light: ColorSchema, dark: ColorSchema })
  .describe('CustomizationThemedColor: a colour for the light and the dark theme');
/** GitBook's `URL` (format uri), http(s) only: these URLs are images, fonts and links of the published pages. */
const CustomizationUrlSchema = z
  .url({ protocol: /^https?$/, error: 'an http(s) URL' })
  .max(2048)
  .describe('URL: http or https (max 2048)');
export const CustomizationThemedUrlSchema = z
  .object({ light: CustomizationUrlSchema, dark: CustomizationUrlSchema })
  .describe('CustomizationThemedURL: a URL for the light and the dark theme');
/** GitBook's `Emoji`: the character(s) of an emoji, or its Unicode code points in hex (`1f389`, `1f1eb-1f1f7`). */
export const CustomizationEmojiSchema = z
  .string()
  .min(1)
  .max(50)
  .regex(
    /^(?:[0-9a-fA-F]{1,6}(?:-[0-9a-fA-F]{1,6})*|(?:[\p{Extended_Pictographic}\p{Emoji_Component}\p{Regional_Indicator}]|\u200d|\ufe0f|\u20e3)+)$/u,
    'an emoji, or its code points in hex (e.g. 1f389)',
  )
  .describe('Emoji: Unicode codepoint or character of the emoji');

const id = z.string().min(1).max(256);
export const CustomizationContentRefSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('file'), file: id, space: id.optional() }),
    z.object({ kind: z.literal('url'), url: z.string().max(2048) }),
    z.object({ kind: z.literal('page'), page: id, space: id.optional() }),
    z.object({ kind: z.literal('anchor'), anchor: id, space: id.optional(), page: id.optional() }),
    z.object({ kind: z.literal('user'), user: id }),
    z.object({ kind: z.literal('collection'), collection: id }),
    z.object({ kind: z.literal('space'), space: id }),
    z.object({ kind: z.literal('reusable-content'), reusableContent: id, space: id.optional() }),
    z.object({ kind: z.literal('tag'), tag: id, space: id.optional() }),
    z.object({ kind: z.literal('openapi'), spec: id }),
  ])
  .describe('ContentRef: a reference to content, or a URL (`kind: url`)');

const CustomizationContentLinkSchema = z
  .object({
    title: z.string().max(64).describe('CustomizationContentLinkTitle (max 64)'),
    localizedTitle: LocalizedString64Schema.optional(),
    to: CustomizationContentRefSchema,
  })
  .describe('CustomizationContentLink');
const links = z.array(CustomizationContentLinkSchema).max(CUSTOMIZATION_LIMITS.links);

export const CustomizationHeaderItemSchema = z
  .object({
    title: z.string().max(CUSTOMIZATION_LIMITS.text),
    localizedTitle: LocalizedStringSchema.optional(),
    style: z.enum(['link', 'button-primary', 'button-secondary']).optional(),
    to: CustomizationContentRefSchema.nullable(),
    links,
    condition: z.string().max(1024).optional().describe('Expression deciding whether the item is shown'),
  })
  .describe('CustomizationHeaderItem: a link of the header, or a menu of links (`links`)');
export const CustomizationFooterGroupSchema = z
  .object({ title: z.string().max(CUSTOMIZATION_LIMITS.text), localizedTitle: LocalizedStringSchema.optional(), links })
  .describe('CustomizationFooterGroup');

const FontDefinitionSchema = z
  .object({
    id: z.string().min(1).max(256),
    custom: z.boolean(),
    fontFamily: z.string().min(1).max(50),
    fontFaces: z
      .array(
        z.object({
          weight: z.number().int().min(1).max(1000),
          sources: z
            .array(z.object({ url: CustomizationUrlSchema, format: z.enum(['woff2', 'woff']).optional() }))
            .min(1)
            .max(CUSTOMIZATION_LIMITS.fontSources),
        }),
      )
      .min(1)
      .max(CUSTOMIZATION_LIMITS.fontFaces),
  })
  .describe('CustomizationFontDefinitionInput');
const DefaultFontSchema = z.enum([
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
]);
const DefaultMonospaceFontSchema = z.enum([
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
]);
const CodeThemeSchema = z.enum(CODE_THEMES);
const ThemedCodeThemeSchema = z.object({ light: CodeThemeSchema, dark: CodeThemeSchema });

const StylingSchema = z.object({
  theme: z.enum(['clean', 'muted', 'bold', 'gradient']).describe('CustomizationTheme'),
  primaryColor: CustomizationThemedColorSchema.describe('The primary colour, of links and UI text'),
  tint: z
    .object({ color: CustomizationThemedColorSchema })
    .optional()
    .describe('CustomizationTint: colours the UI beyond links (the primary colour when unset)'),
  infoColor: CustomizationThemedColorSchema,
  successColor: CustomizationThemedColorSchema,
  warningColor: CustomizationThemedColorSchema,
  dangerColor: CustomizationThemedColorSchema,
  corners: z.enum(['straight', 'rounded', 'circular']),
  depth: z.enum(['subtle', 'flat']),
  links: z.enum(['default', 'accent']),
  font: z.union([DefaultFontSchema, FontDefinitionSchema]),
  headingFont: z.union([DefaultFontSchema, FontDefinitionSchema]).nullable().optional(),
  monospaceFont: z.union([DefaultMonospaceFontSchema, FontDefinitionSchema]),
  background: z.enum(['plain', 'match']).describe('Deprecated: use `tint`'),
  icons: z.enum(['regular', 'solid', 'duotone', 'light', 'thin']),
  codeTheme: z.object({ default: ThemedCodeThemeSchema, openapi: ThemedCodeThemeSchema }),
  sidebar: z.object({ background: z.enum(['default', 'filled']), list: z.enum(['default', 'pill', 'line']) }),
  search: z.enum(['prominent', 'subtle']),
});

/** `{icon}`, `{emoji}` or `{}` (none): the site's icon, its favicon on the published site. */
export const CustomizationFaviconSchema = z
  .union([
    z.object({ icon: CustomizationThemedUrlSchema }).strict(),
    z.object({ emoji: CustomizationEmojiSchema }).strict(),
    z.object({}).strict(),
  ])
  .describe('CustomizationFavicon: an image (`icon`), an emoji, or none (`{}`)');

const HeaderSchema = z.object({
  preset: z.enum(['default', 'bold', 'contrast', 'custom', 'none']).describe('Deprecated: use `styling.theme`'),
  logo: CustomizationThemedUrlSchema.optional(),
  primaryLink: CustomizationContentRefSchema.optional(),
  backgroundColor: CustomizationThemedColorSchema.optional().describe('Deprecated'),
  linkColor: CustomizationThemedColorSchema.optional().describe('Deprecated'),
  links: z.array(CustomizationHeaderItemSchema).max(CUSTOMIZATION_LIMITS.headerLinks),
});
const FooterSchema = z.object({
  logo: CustomizationThemedUrlSchema.optional(),
  groups: z.array(CustomizationFooterGroupSchema).max(CUSTOMIZATION_LIMITS.footerGroups),
  copyright: z.string().max(512).optional(),
});
const AnnouncementSchema = z
  .object({
    enabled: z.boolean(),
    message: z.string().min(2).max(128),
    localizedMessage: LocalizedString128Schema.optional(),
    link: CustomizationContentLinkSchema.optional(),
    style: z.enum(['info', 'warning', 'danger', 'success']),
  })
  .describe('CustomizationAnnouncement');
const ThemesSchema = z.object({ default: z.enum(['light', 'dark', 'system']), toggeable: z.boolean() });
const enabled = z.object({ enabled: z.boolean() });
const urlOf = z.object({ url: CustomizationUrlSchema.optional() });
const LocaleSchema = z.enum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']);

/** Every field of GitBook's `SiteCustomizationSettingsBase`, as stored and answered. */
export const SiteCustomizationShape = {
  title: SiteTitleSchema.optional().describe('Title of the published site; the site title when unset'),
  localizedTitle: LocalizedString128Schema.optional(),
  styling: StylingSchema,
  internationalization: z.object({ locale: LocaleSchema }).describe('Deprecated'),
  favicon: CustomizationFaviconSchema,
  header: HeaderSchema,
  footer: FooterSchema,
  announcement: AnnouncementSchema.optional(),
  themes: ThemesSchema,
  feedback: enabled,
  ai: z.object({
    mode: z.enum(['none', 'search', 'assistant']),
    greeting: z.string().max(256).optional(),
    localizedGreeting: LocalizedString128Schema.optional(),
    suggestions: z.array(z.string().min(3).max(64)).max(5).optional(),
    instructions: z.string().max(10000).optional(),
  }),
  advancedCustomization: enabled,
  pageActions: z.object({
    items: z.array(z.enum(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'])).max(6),
  }),
  externalLinks: z.object({ target: z.enum(['self', 'blank']) }),
  pagination: enabled,
  trademark: enabled,
  privacyPolicy: urlOf,
  socialPreview: urlOf,
  socialAccounts: z
    .array(
      z.object({
        platform: z.enum([
          'twitter',
          'instagram',
          'facebook',
          'linkedin',
          'github',
          'discord',
          'slack',
          'youtube',
          'tiktok',
          'reddit',
          'bluesky',
          'mastodon',
          'threads',
          'medium',
        ]),
        handle: z.string().min(1).max(128),
        display: z.object({ footer: z.boolean(), header: z.boolean() }),
      }),
    )
    .max(10),
  insights: z.object({ trackingCookie: z.boolean() }),
};

export const SiteCustomizationSettingsSchema = z
  .object({
    ...SiteCustomizationShape,
    updatedAt: TimestampSchema.optional().describe('When the customization was last set; absent: never'),
  })
  .describe('SiteCustomizationSettings: the site customization, its defaults where never set');
export type SiteCustomizationSettings = z.infer<typeof SiteCustomizationSettingsSchema>;

/** The groups of settings a change fills field by field (the others are replaced whole). */
export const CUSTOMIZATION_GROUPS = [
  'styling',
  'internationalization',
  'header',
  'footer',
  'themes',
  'feedback',
  'ai',
  'advancedCustomization',
  'pageActions',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
  'insights',
] as const;

/**
 * The body of `updateSiteCustomizationById`: GitBook's `SiteCustomizationSettingsInput`. A full replacement: a
 * field left out (or a field left out of a group such as `styling`) answers its default.
 */
export const SiteCustomizationInputShape = {
  ...SiteCustomizationShape,
  styling: StylingSchema.partial().optional(),
  internationalization: SiteCustomizationShape.internationalization.partial().optional(),
  favicon: CustomizationFaviconSchema.optional(),
  header: HeaderSchema.partial().optional(),
  footer: FooterSchema.partial().optional(),
  themes: ThemesSchema.partial().optional(),
  feedback: enabled.partial().optional(),
  ai: SiteCustomizationShape.ai.partial().optional(),
  advancedCustomization: enabled.partial().optional(),
  pageActions: SiteCustomizationShape.pageActions.partial().optional(),
  externalLinks: SiteCustomizationShape.externalLinks.partial().optional(),
  pagination: enabled.partial().optional(),
  trademark: enabled.partial().optional(),
  privacyPolicy: urlOf.optional(),
  socialPreview: urlOf.optional(),
  socialAccounts: SiteCustomizationShape.socialAccounts.optional(),
  insights: SiteCustomizationShape.insights.partial().optional(),
};
export type SiteCustomizationInput = z.infer<z.ZodObject<typeof SiteCustomizationInputShape>>;

const reset = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const resetEnabled = z.object({ enabled: z.boolean().nullable() });

/**
 * The body of `overrideSiteSpaceCustomizationById` (GitBook's, field for field): a field given overrides the
 * site's value on the site space's pages, null removes the override (the site's value applies again).
 */
export const SiteSpaceCustomizationOverrideShape = {
  title: reset(SiteTitleSchema),
  localizedTitle: reset(LocalizedString128Schema),
  styling: z
    .object({
      theme: reset(StylingSchema.shape.theme),
      primaryColor: reset(CustomizationThemedColorSchema),
      infoColor: reset(CustomizationThemedColorSchema),
      successColor: reset(CustomizationThemedColorSchema),
      warningColor: reset(CustomizationThemedColorSchema),
      dangerColor: reset(CustomizationThemedColorSchema),
      tint: reset(z.object({ color: CustomizationThemedColorSchema })),
      corners: reset(StylingSchema.shape.corners),
      depth: reset(StylingSchema.shape.depth),
      links: reset(StylingSchema.shape.links),
      icons: reset(StylingSchema.shape.icons),
      sidebar: z
        .object({
          background: reset(StylingSchema.shape.sidebar.shape.background),
          list: reset(StylingSchema.shape.sidebar.shape.list),
        })
        .optional(),
      search: reset(StylingSchema.shape.search),
      background: reset(StylingSchema.shape.background),
      codeTheme: z.object({ default: reset(ThemedCodeThemeSchema), openapi: reset(ThemedCodeThemeSchema) }).optional(),
    })
    .optional(),
  internationalization: z.object({ locale: LocaleSchema.nullable() }).optional().describe('Deprecated'),
  favicon: reset(CustomizationFaviconSchema),
  announcement: AnnouncementSchema.optional(),
  header: z
    .object({
      preset: reset(HeaderSchema.shape.preset),
      logo: reset(CustomizationThemedUrlSchema),
      primaryLink: reset(CustomizationContentRefSchema),
      backgroundColor: reset(CustomizationThemedColorSchema),
      linkColor: reset(CustomizationThemedColorSchema),
      links: reset(HeaderSchema.shape.links),
    })
    .optional(),
  footer: z
    .object({
      logo: reset(CustomizationThemedUrlSchema),
      groups: reset(FooterSchema.shape.groups),
      copyright: reset(z.string().max(512)),
    })
    .optional(),
  themes: z.object({ default: reset(ThemesSchema.shape.default), toggeable: reset(z.boolean()) }).optional(),
  feedback: resetEnabled.optional(),
  externalLinks: z.object({ target: z.enum(['self', 'blank']).nullable() }).optional(),
  pagination: resetEnabled.optional(),
  trademark: resetEnabled.optional(),
  privacyPolicy: z.object({ url: reset(CustomizationUrlSchema) }).optional(),
  socialPreview: z.object({ url: reset(CustomizationUrlSchema) }).optional(),
};
export type SiteSpaceCustomizationOverride = z.infer<z.ZodObject<typeof SiteSpaceCustomizationOverrideShape>>;

/** What a published site's audience reads of it (defined beside the customization it carries). */
export const PublishedContentSiteSchema = z
  .object({
    object: z.literal('published-content-site').describe('Always `published-content-site`'),
    site: SiteSchema,
    structure: SiteStructureSchema,
    customizations: z
      .object({
        site: SiteCustomizationSettingsSchema,
        siteSpaces: z
          .record(z.string(), SiteCustomizationSettingsSchema)
          .describe(
            "Each site space shown: the site's customization with the site space's overrides, by site space id",
          ),
      })
      .describe('What the site looks like: the whole customization (what was set, the defaults for the rest)'),
    scripts: z
      .array(
        z.object({
          script: UrlSchema.describe('Script URL to load'),
          contentSecurityPolicy: z.string().optional().describe('Content Security Policy of the script'),
          cookies: z.boolean().describe('Whether the script may use cookies'),
        }),
      )
      .describe("Integration scripts the site loads: none (Quire's integrations run no code on sites)"),
  })
  .describe('PublishedContentSite');
export type PublishedContentSite = z.infer<typeof PublishedContentSiteSchema>;
