/**
 * `@quire/document`: GitBook's document model, one package the server (content, sites, the PDF export) and the
 * browser (the editor) load alike. Pure TypeScript, no Node built-in (a test bundles it for the browser).
 *
 * - The typed document is the contract's (`JSONDocument` and its blocks, inferred from `@quire/contracts`' zod
 *   schema: one source), re-exported here.
 * - Markdown ⇄ document in GitBook's markdown dialect (`markdownToDocument`, `documentToMarkdown`,
 *   `normalizeMarkdown`), conflict blocks, references (`refFromUrl`, `urlFromRef`), plain text and outline
 *   (`textOf`, `headingsOf`, `sectionsOf`), a walker, the three-way document merge (`mergeBlocks`), order keys.
 * - HTML: one escaping template (`html`; `raw` only for trusted producers) and one renderer of documents
 *   (`documentToHtml`, block by block, with KaTeX math, shiki code and sanitised HTML blocks), which the published
 *   site uses. A new block type is written here: its markdown, its text, its HTML.
 */
export * from './model.ts';
export { renderBlocks } from './render/blocks.ts';
export { newRenderContext, type DocNode, type Ref, type RenderContext, type Target } from './render/context.ts';
export { documentToHtml } from './render/document.ts';
export { footnotesOf } from './render/inlines.ts';
