import { z } from 'zod';
import { ofKind } from './shapes.ts';
// (GitBook calls the union `ContentRef`; that name is taken in revision-changes.ts by a URL-only reference.)

/**
 * GitBook's content references (`ContentRef*` in its openapi `components.schemas`): what a link, a mention, a
 * content-ref block, a button or an image points to.
 */

const idOf = (what: string) => z.string().min(1).describe(`Unique identifier of the ${what}`);
const spaceOf = (what: string, whenAbsent = '') =>
  z.string().min(1).optional().describe(`ID of the space the ${what} is in${whenAbsent}`);
const CURRENT_SPACE = '; the current space when absent';

export const ContentRefURLSchema = ofKind('url', 'A reference to a URL', {
  url: z.string().describe('Absolute or relative URL'),
});
export const ContentRefFileSchema = ofKind('file', 'A reference to a file of a space', {
  file: idOf('file'),
  space: spaceOf('file', CURRENT_SPACE),
});
export type ContentRefFile = z.infer<typeof ContentRefFileSchema>;
export const ContentRefPageSchema = ofKind('page', 'A reference to a page', {
  page: idOf('page'),
  space: spaceOf('page', CURRENT_SPACE),
});
export const ContentRefAnchorSchema = ofKind('anchor', 'A reference to a heading of a page', {
  anchor: z.string().min(1).describe('Anchor (heading ID) in the page'),
  space: spaceOf('page', CURRENT_SPACE),
  page: z.string().min(1).optional().describe('ID of the page; the current page when absent'),
});
export const ContentRefUserSchema = ofKind('user', 'A reference to a user', { user: idOf('user') });
export const ContentRefCollectionSchema = ofKind('collection', 'A reference to a collection', {
  collection: idOf('collection'),
});
export const ContentRefSpaceSchema = ofKind('space', 'A reference to a space', { space: idOf('space') });
export const ContentRefReusableContentSchema = ofKind('reusable-content', 'A reference to a reusable content', {
  reusableContent: idOf('reusable content'),
  space: spaceOf('reusable content'),
});
export type ContentRefReusableContent = z.infer<typeof ContentRefReusableContentSchema>;
export const ContentRefTagSchema = ofKind('tag', 'A reference to a tag', { tag: idOf('tag'), space: spaceOf('tag') });
export const ContentRefOpenAPISchema = ofKind('openapi', 'A reference to an OpenAPI specification', {
  spec: z.string().min(1).describe('Slug of the OpenAPI specification of the organization'),
});
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
/** The kinds of content reference, in GitBook's order (the union's). */
export const CONTENT_REF_KINDS = DocumentContentRefSchema.options.map((option) => option.shape.kind.value);

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
