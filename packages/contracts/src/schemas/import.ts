import { z } from 'zod';

/** Where imported content comes from: `website` (a site crawled from `url`). GitBook's `ImportContentSource`. */
export const ImportContentSourceSchema = z
  .enum(['website'])
  .describe('Source of the import: `website` (the page at `url` and the same-site pages it links to)');

/** GitBook's `RequestImportContent`. */
export const ImportContentShape = {
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('http(s) URL of the first page to import (max 2048); the same-site pages it links to come along'),
  source: ImportContentSourceSchema,
};

/** GitBook's `ImportContentResult`. */
export const ImportContentResultSchema = z
  .object({
    revision: z.string().describe('Id of the revision the import made (of the space, or of the change request)'),
    importedResources: z.number().int().min(0).describe('Pages and images imported'),
    totalResources: z
      .number()
      .int()
      .min(0)
      .describe(
        'Pages and images found: fewer imported means a partial import (limits reached, fetches failed, non-HTML pages skipped)',
      ),
  })
  .describe('ImportContentResult');
export type ImportContentResult = z.infer<typeof ImportContentResultSchema>;
