/**
 * The document model without the HTML renderer: what a process that never renders loads (content and its parsing
 * threads: no KaTeX, shiki or hast to load on each thread). `@quire/document` exports all of this too.
 */
import { headingsOf, sectionsOf, textOf, type DocumentHeading, type DocumentSection } from './document-outline.ts';
import { documentToMarkdown } from './markdown/document-to-markdown.ts';
import { markdownToDocument } from './markdown/markdown-to-document.ts';

export type {
  DocumentBlock,
  DocumentBlockTopLevel,
  DocumentContentRef,
  DocumentInline,
  DocumentRef,
  DocumentText,
  DocumentTextLeaf,
  JSONDocument,
} from '@quire/contracts/document';
export { conflictMarkdown, conflictsIn } from './conflicts.ts';
export {
  headingsOf,
  leavesText,
  phrasingText,
  sectionsOf,
  textOf,
  type DocumentHeading,
  type DocumentSection,
  type PhrasingReading,
} from './document-outline.ts';
export { codeRanges } from './markdown/code-ranges.ts';
export { documentToMarkdown, gitbookMarkdown } from './markdown/document-to-markdown.ts';
export { markdownToDocument } from './markdown/markdown-to-document.ts';
export { decodeEntities, gitbookHtmlAttribute, gitbookHtmlText } from './markdown/md-context.ts';
export { mergeBlocks, type BlockMerge } from './merge/block-merge.ts';
export { mergeText, type MergeLabels, type TextMerge } from './merge/text-merge.ts';
export { compareOrderKeys, orderKeyBetween, orderKeysBetween, orderKeysFor } from './order-keys.ts';
export { decodeOr, FILE_URL_SCHEME, refFromUrl, urlFromRef } from './refs.ts';
export { esc, Html, html, join, raw, safeUrl, xml, type Interpolation } from './html.ts';
export { walk, type DocumentNode, type Visitor } from './walk.ts';

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
