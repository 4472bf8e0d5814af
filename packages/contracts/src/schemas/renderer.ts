import { z } from 'zod';
import { IdSchema } from '../common.ts';

/** What GitBook's site renderer reads beside pages: a page's meta links, embeds. */

const MetaLinkTargetSchema = z
  .union([
    z.object({
      kind: z.literal('page').describe('A page'),
      page: IdSchema.describe('The page'),
      space: IdSchema.optional().describe('Its space (this one when absent)'),
    }),
    z.object({ kind: z.literal('url').describe('A URL'), url: z.string().describe('The URL') }),
  ])
  .describe('Where a meta link points: a page or a URL (ContentRefPage or ContentRefURL)');

export const RevisionPageMetaLinksSchema = z
  .object({
    canonical: MetaLinkTargetSchema.optional().describe("The page's canonical location, when it declares one"),
    alternates: z.array(MetaLinkTargetSchema).describe('Other locations of the same page (its translations…)'),
  })
  .describe("A page's meta links (GitBook's RevisionPageMetaLinks): its canonical link and its alternates");

export type RevisionPageMetaLinks = z.infer<typeof RevisionPageMetaLinksSchema>;

export const EmbedSchema = z
  .union([
    z.object({
      type: z.literal('link').describe('A link card: the page has no embeddable content'),
      title: z.string().describe("The page's title (its URL when it has none)"),
      site: z.string().describe("The site's name (its host name when it has none)"),
      icon: z.string().optional().describe("URL of the site's icon"),
    }),
    z.object({
      type: z.literal('rich').describe("Embeddable HTML, from the page's oEmbed (video or rich)"),
      title: z.string().describe("The page's title"),
      site: z.string().describe("The site's name"),
      icon: z.string().optional().describe("URL of the site's icon"),
      html: z.string().describe('The HTML the provider gives to embed the content'),
    }),
  ])
  .describe("What an embed block of a URL shows (GitBook's Embed): a link card, or the provider's HTML");

export type Embed = z.infer<typeof EmbedSchema>;
