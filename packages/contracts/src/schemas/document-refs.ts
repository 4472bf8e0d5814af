import { z } from 'zod';
// (GitBook calls the union `ContentRef`; that name is taken in revision-changes.ts by a URL-only reference.)

/**
 * GitBook's content references (`ContentRef*` in its openapi `components.schemas`): what a link, a mention, a
 * content-ref block, a button or an image points to.
 */

export const ContentRefURLSchema = z
  .object({
    kind: z.literal('url').describe('Always `url`'),
    url: z.string().describe('Absolute or relative URL'),
  })
  .describe('A reference to a URL');
export const ContentRefFileSchema = z
  .object({
    kind: z.literal('file').describe('Always `file`'),
    file: z.string().min(1).describe('Unique identifier of the file'),
    space: z.string().min(1).optional().describe('ID of the space the file is in; the current space when absent'),
  })
  .describe('A reference to a file of a space');
export type ContentRefFile = z.infer<typeof ContentRefFileSchema>;
export const ContentRefPageSchema = z
  .object({
    kind: z.literal('page').describe('Always `page`'),
    page: z.string().min(1).describe('Unique identifier of the page'),
    space: z.string().min(1).optional().describe('ID of the space the page is in; the current space when absent'),
  })
  .describe('A reference to a page');
export const ContentRefAnchorSchema = z
  .object({
    kind: z.literal('anchor').describe('Always `anchor`'),
    anchor: z.string().min(1).describe('Anchor (heading ID) in the page'),
    space: z.string().min(1).optional().describe('ID of the space the page is in; the current space when absent'),
    page: z.string().min(1).optional().describe('ID of the page; the current page when absent'),
  })
  .describe('A reference to a heading of a page');
export const ContentRefUserSchema = z
  .object({
    kind: z.literal('user').describe('Always `user`'),
    user: z.string().min(1).describe('Unique identifier of the user'),
  })
  .describe('A reference to a user');
export const ContentRefCollectionSchema = z
  .object({
    kind: z.literal('collection').describe('Always `collection`'),
    collection: z.string().min(1).describe('Unique identifier of the collection'),
  })
  .describe('A reference to a collection');
export const ContentRefSpaceSchema = z
  .object({
    kind: z.literal('space').describe('Always `space`'),
    space: z.string().min(1).describe('Unique identifier of the space'),
  })
  .describe('A reference to a space');
export const ContentRefReusableContentSchema = z
  .object({
    kind: z.literal('reusable-content').describe('Always `reusable-content`'),
    reusableContent: z.string().min(1).describe('Unique identifier of the reusable content'),
    space: z.string().min(1).optional().describe('ID of the space the reusable content is in'),
  })
  .describe('A reference to a reusable content');
export type ContentRefReusableContent = z.infer<typeof ContentRefReusableContentSchema>;
export const ContentRefTagSchema = z
  .object({
    kind: z.literal('tag').describe('Always `tag`'),
    tag: z.string().min(1).describe('Unique identifier of the tag'),
    space: z.string().min(1).optional().describe('ID of the space the tag is in'),
  })
  .describe('A reference to a tag');
export const ContentRefOpenAPISchema = z
  .object({
    kind: z.literal('openapi').describe('Always `openapi`'),
    spec: z.string().min(1).describe('Slug of the OpenAPI specification of the organization'),
  })
  .describe('A reference to an OpenAPI specification');
export type ContentRefOpenAPI = z.infer<typeof ContentRefOpenAPISchema>;

export const DocumentContentRefSchema = z
  .discriminatedUnion('kind', [
    ContentRefFileSchema,
    ContentRefURLSchema,
    ContentRefPageSchema,
    ContentRefAnchorSchema,
    ContentRefUserSchema,
    ContentRefCollectionSchema,
    ContentRefSpaceSchema,
    ContentRefReusableContentSchema,
    ContentRefTagSchema,
    ContentRefOpenAPISchema,
  ])
  .describe('What a link, mention, content-ref or button points to');
export type DocumentContentRef = z.infer<typeof DocumentContentRefSchema>;
/** The kinds of content reference, in GitBook's order. */
export const CONTENT_REF_KINDS = [
  'file',
  'url',
  'page',
  'anchor',
  'user',
  'collection',
  'space',
  'reusable-content',
  'tag',
  'openapi',
] as const;

export const DocumentRefSchema = z
  .discriminatedUnion('kind', [ContentRefURLSchema, ContentRefFileSchema])
  .describe('What an image or a swagger block points to: a URL or a file');
export type DocumentRef = z.infer<typeof DocumentRefSchema>;

export const LengthSchema = z
  .union([
    z.number().describe('A length in pixels'),
    z
      .object({ unit: z.string().describe('Unit of the length (`px`, `%`…)'), value: z.number().describe('Amount') })
      .describe('A length with its unit'),
  ])
  .describe('A length');
export type Length = z.infer<typeof LengthSchema>;

export const IconSchema = z.string().max(50).describe('Name of an icon (Font Awesome), e.g. `gear`');

export const TEXT_COLORS = [
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
] as const;
export const DocumentTextColorSchema = z.enum(TEXT_COLORS).describe('A color of text or of its background');
export type DocumentTextColor = z.infer<typeof DocumentTextColorSchema>;

/** GitBook's `PlainObject`: a JSON object (integration block properties). */
export type PlainValue = string | number | boolean | PlainObject | (string | number | boolean | PlainObject)[];
export interface PlainObject {
  [key: string]: PlainValue;
}
export const PlainObjectSchema: z.ZodType<PlainObject> = z
  .record(
    z.string(),
    z.lazy(() =>
      z.union([
        z.string(),
        z.number(),
        z.boolean(),
        PlainObjectSchema,
        z.array(z.union([z.string(), z.number(), z.boolean(), PlainObjectSchema])),
      ]),
    ),
  )
  .describe('A JSON object');
