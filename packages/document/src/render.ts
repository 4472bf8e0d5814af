/**
 * The HTML side alone (`@quire/document/render`): the escaping template, the renderer of documents and the plain
 * text of a document, without the markdown converters (no remark or micromark loaded): what the published site
 * loads. `@quire/document` exports all of this too.
 */
export type { DocumentBlock, DocumentBlockTopLevel, JSONDocument } from '@quire/contracts/document';
export { textOf } from './document-outline.ts';
export { esc, Html, html, join, raw, safeUrl, xml, type Interpolation } from './html.ts';
export {
  breadcrumbsHtml,
  type ChromeLink,
  type OutlineHeading,
  outlineHtml,
  prevNextHtml,
  updatedHtml,
} from './render/chrome.ts';
export { COVER_HEIGHT, coverHtml, coverOf, coverPositionY, type PageCover } from './render/cover.ts';
export { renderBlocks } from './render/blocks.ts';
export { newRenderContext, type DocNode, type Ref, type RenderContext, type Target } from './render/context.ts';
export { documentToHtml } from './render/document.ts';
export { footnotesOf } from './render/inlines.ts';
export { relativePage, type PathIndexed } from './render/relative.ts';
