import type { JSONDocument } from '@quire/contracts/document';
import { html, type Html } from '../html.ts';
import { renderBlocks } from './blocks.ts';
import type { DocNode, RenderContext } from './context.ts';
import { footnotesOf } from './inlines.ts';

/**
 * A document as HTML: its blocks, then its footnotes. Links, images and files are resolved by the context (the
 * published site gives its URLs and signed file links), `if` blocks by its `conditionHolds`; the headings met are
 * left in `ctx.headings` (the page's outline). Every text is escaped (`html`), HTML blocks are sanitised.
 */
export async function documentToHtml(document: JSONDocument | undefined, ctx: RenderContext): Promise<Html> {
  const blocks = await renderBlocks(document?.nodes as DocNode[] | undefined, ctx);
  return html`${blocks}${footnotesOf(ctx)}`;
}
