import { z } from 'zod';
import { listOf } from '../common.ts';
import { ofKind } from './shapes.ts';

/** Where a reference lives: which organization, space and revision it was read in. */
const located = {
  organization: z.string().describe('ID of the organization of the space'),
  space: z.string().describe('ID of the space'),
  versionContext: z
    .object({
      type: z.literal('revision').describe('Always `revision`'),
      revision: z.string().describe('ID of the revision the reference was read in'),
    })
    .describe('The revision the reference was read in'),
};

export const ContentReferencePageSchema = ofKind('page', 'A page of a revision', {
  ...located,
  page: z.string().describe('ID of the page'),
});
export const ContentReferenceAnchorSchema = ofKind('anchor', 'A heading of a page of a revision', {
  ...located,
  page: z.string().describe('ID of the page'),
  anchor: z.string().describe('Anchor of a heading of the page (GitHub-style id)'),
});
export const ContentReferenceFileSchema = ofKind('file', 'A file of a revision', {
  ...located,
  file: z.string().describe('ID of the file'),
});
export const ContentReferenceUrlSchema = ofKind('url', 'A URL', {
  url: z.string().describe('The URL as written (absolute or relative)'),
});

export const ContentReferenceSchema = z
  .discriminatedUnion('kind', [
    ContentReferencePageSchema,
    ContentReferenceAnchorSchema,
    ContentReferenceFileSchema,
    ContentReferenceUrlSchema,
  ])
  .describe('What a reference points to: a page, a heading of a page, a file or a URL');
export type ContentReference = z.infer<typeof ContentReferenceSchema>;

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export const LinkStatusSchema = z
  .enum(LINK_STATUSES)
  .describe(
    '`ok`: the target exists in the revision (or is an external URL, never fetched); `broken`: the target does not exist in the revision; `in-app`: an absolute URL pointing inside this platform',
  );
export type LinkStatus = z.infer<typeof LinkStatusSchema>;

export const LinkItemSchema = z
  .object({
    status: LinkStatusSchema,
    relation: z.literal('reference').describe('Always `reference`: the target is referenced by the content'),
    targetReference: ContentReferenceSchema.describe('Where the link goes'),
    locationReferences: z
      .array(ContentReferencePageSchema)
      .describe('The pages of the revision the link is in, in tree order'),
  })
  .describe('A link of the content: one item per distinct target');
export type LinkItem = z.infer<typeof LinkItemSchema>;

export const LinksStatsSchema = z
  .object({
    total: z.number().int().describe('Number of links (distinct targets) of the listing, whatever `status`'),
    broken: z
      .object({
        total: z.number().int().describe('How many of them are broken'),
        changeRequest: z
          .number()
          .int()
          .describe(
            "Broken links in the space's open change requests (each resolved in its own revision, summed; over the same page for a page's links)",
          ),
      })
      .describe('Broken links'),
  })
  .describe('Counts over the whole listing');

export const LinksListSchema = listOf(LinkItemSchema).extend({ stats: LinksStatsSchema });
export type LinksList = z.infer<typeof LinksListSchema>;

export const BacklinkItemSchema = ContentReferencePageSchema.describe(
  'A page of the revision that references the file',
);
export type BacklinkItem = z.infer<typeof BacklinkItemSchema>;
