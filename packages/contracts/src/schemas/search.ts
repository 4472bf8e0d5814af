import { z } from 'zod';
import { UrlSchema } from '../common.ts';

export const SEARCH_QUERY_MAX = 512;

export const SearchScoreSchema = z
  .number()
  .min(0)
  .describe(
    'Relevance score (PostgreSQL `ts_rank`): higher is better; a title match weighs most, then headings and the description, then the body',
  );

export const SearchSectionResultSchema = z
  .object({
    id: z
      .string()
      .describe(
        'Anchor of the heading opening the section (GitHub-style id); the page id for the text before the first heading',
      ),
    title: z.string().describe('Text of the heading; the page title for the text before the first heading'),
    path: z.string().describe('Path of the page, with `#anchor` for a heading'),
    score: SearchScoreSchema,
    body: z.string().describe('Plain-text excerpt of the section around the matching words (`ts_headline`)'),
    urls: z
      .object({ app: UrlSchema.describe('Location of the section in the application') })
      .describe('URLs of the section'),
  })
  .describe('A section of a page (a heading and the text up to the next heading) whose text matched');
export type SearchSectionResult = z.infer<typeof SearchSectionResultSchema>;

export const SearchPageResultSchema = z
  .object({
    id: z.string().describe('Id of the page'),
    title: z.string().describe('Title of the page'),
    description: z.string().describe('Description of the page (empty when it has none)'),
    path: z.string().describe('Path of the page in the live revision'),
    score: SearchScoreSchema,
    rank: z
      .number()
      .int()
      .min(1)
      .describe('One-based position in the whole ranked result, kept across pages of results and grouping by space'),
    resultType: z
      .enum(['page', 'section'])
      .describe('`page` when the title matched, `section` when only the content did'),
    ancestors: z
      .array(z.object({ title: z.string().describe('Title of the ancestor page') }))
      .describe('The parent pages, from the top level to the direct parent'),
    sections: z.array(SearchSectionResultSchema).describe('The sections whose text matched, best first (at most 3)'),
    urls: z.object({ app: UrlSchema.describe('Location of the page in the application') }).describe('URLs of the page'),
  })
  .describe('A page of the live revision of a space that matched the query');
export type SearchPageResult = z.infer<typeof SearchPageResultSchema>;

export const SearchSpaceResultSchema = z
  .object({
    type: z.literal('space').describe('Always `space`'),
    id: z.string().describe('Id of the space'),
    title: z.string().describe('Title of the space'),
    score: SearchScoreSchema.describe('Score of its best page on this page of results'),
    pages: z.array(SearchPageResultSchema).describe('Its matching pages on this page of results, best first'),
  })
  .describe('The matching pages of one space');
export type SearchSpaceResult = z.infer<typeof SearchSpaceResultSchema>;
