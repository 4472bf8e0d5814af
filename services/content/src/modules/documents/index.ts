import { documentToMarkdown } from './document-to-markdown.ts';
import { headingsOf, sectionsOf, textOf, type DocumentHeading, type DocumentSection } from './document-outline.ts';
import { markdownToDocument } from './markdown-to-document.ts';

export { conflictMarkdown, conflictsIn } from './conflicts.ts';
export { documentToMarkdown, gitbookMarkdown } from './document-to-markdown.ts';
export { markdownToDocument } from './markdown-to-document.ts';
export { FILE_URL_SCHEME, refFromUrl, urlFromRef } from './refs.ts';
export { sectionsOf } from './document-outline.ts';
export type { DocumentHeading, DocumentSection } from './document-outline.ts';

/**
 * The canonical form a page's markdown is stored in: the markdown of its document. Two texts with the same
 * content (whatever their bullets, emphasis markers, spacing, wrapping, or whether the content came in as
 * markdown or as a JSON document) normalise to the same string, and normalising twice changes nothing.
 */
export function normalizeMarkdown(markdown: string): string {
  return documentToMarkdown(markdownToDocument(markdown), markdown);
}

/** The plain text of a page's markdown, for search (see `textOf`). */
export function documentText(markdown: string): string {
  return textOf(markdownToDocument(markdown));
}

/** The headings of a page's markdown with their GitHub anchors, in reading order. */
export function documentHeadings(markdown: string): DocumentHeading[] {
  return headingsOf(markdownToDocument(markdown));
}

/** The sections of a page's markdown (a heading and its text up to the next heading), for search. */
export function documentSections(markdown: string): DocumentSection[] {
  return sectionsOf(markdownToDocument(markdown));
}
