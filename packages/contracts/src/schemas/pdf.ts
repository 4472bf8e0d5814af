import { z } from 'zod';
import { queryBoolean, UrlSchema } from '../common.ts';

/** The query of a PDF export: the whole content, a page with its sub-pages (`page`), or a page alone (`page` + `only`). */
export const PdfQueryShape = {
  only: queryBoolean(
    'Generate a PDF only for the provided page (needs `page`); without it, the page comes with its sub-pages',
  ).optional(),
  page: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('ID of a specific page to generate a PDF for: the page and its sub-pages, or the page alone with `only`'),
};

export const PdfUrlSchema = z
  .object({
    url: UrlSchema.describe(
      'Temporary URL of the PDF: works without the API token for 1 hour. A large content is rendered in the background: until it is ready the URL answers 503 with `Retry-After`',
    ),
  })
  .describe('Where to download the PDF');
export type PdfUrl = z.infer<typeof PdfUrlSchema>;
