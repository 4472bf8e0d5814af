import type { BlockContent, FootnoteDefinition, Image, PhrasingContent } from 'mdast';
import type {
  DocumentBlockParagraph,
  DocumentInline,
  DocumentInlineButton,
  DocumentInlineImage,
} from '@quire/contracts/document';
import { CODE, captionText, normalizeRuns, runsOfLeaves, runsToMdast, type Run } from './leaves.ts';
import { gitbookHtmlAttribute, gitbookHtmlText } from './md-context.ts';
import { emojiText } from './md-inlines.ts';
import { urlFromContentRef, urlFromRef } from '../refs.ts';

/** What writing one document needs: the footnotes its annotations add, and whether HTML in text is kept raw. */
export interface WriteCtx {
  footnotes: FootnoteDefinition[];
  /** Write `<tag>`-looking text as it is (a candidate the writer checks), or escape it. */
  rawHtml: boolean;
  /** Set when some text was written raw (the writer then checks it). */
  raw: boolean;
  /** Every embed is written with its closing tag (some embed has a caption: a lone tag could pair with its end). */
  closeEmbeds?: boolean;
  /** The blocks of an annotation's note (document-to-markdown's blocks). */
  blocks(nodes: readonly DocumentBlockParagraph[] | readonly unknown[], ctx: WriteCtx): BlockContent[];
}

type Phrasing = DocumentBlockParagraph['nodes'];

/** Texts and inlines as mdast phrasing; consecutive text nodes are read as one. */
export function phrasing(nodes: Phrasing, lineBreak: 'break' | 'br', ctx: WriteCtx): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let runs: Run[] = [];
  const flush = () => {
    if (ctx.rawHtml && runs.some((r) => !(r.marks & CODE) && r.text.includes('<'))) ctx.raw = true;
    out.push(...runsToMdast(normalizeRuns(runs), lineBreak, ctx.rawHtml));
    runs = [];
  };
  for (const node of nodes) {
    if (node.object === 'text') {
      runs.push(...runsOfLeaves(node.leaves));
      continue;
    }
    if (node.type === 'emoji') {
      runs.push({ text: emojiText(node.data.code), marks: 0 });
      continue;
    }
    if (node.type === 'annotation') {
      runs.push(...node.nodes.flatMap((t) => runsOfLeaves(t.leaves)));
      flush();
      out.push(
        footnote(
          node.fragments.flatMap((f) => f.nodes),
          ctx,
        ),
      );
      continue;
    }
    flush();
    out.push(...inline(node, lineBreak, ctx));
  }
  flush();
  return out;
}

function footnote(body: readonly unknown[], ctx: WriteCtx): PhrasingContent {
  const identifier = String(ctx.footnotes.length + 1);
  const children = ctx.blocks(body, ctx);
  ctx.footnotes.push({
    type: 'footnoteDefinition',
    identifier,
    label: identifier,
    children: children as FootnoteDefinition['children'],
  });
  return { type: 'footnoteReference', identifier, label: identifier };
}

function inline(
  node: Exclude<DocumentInline, { type: 'emoji' | 'annotation' }>,
  lineBreak: 'break' | 'br',
  ctx: WriteCtx,
): PhrasingContent[] {
  switch (node.type) {
    case 'link':
      return [
        {
          type: 'link',
          url: urlFromContentRef(node.data.ref),
          title: null,
          children: phrasing(node.nodes, lineBreak, ctx),
        },
      ];
    case 'inline-image':
      return [inlinePicture(node)];
    case 'mention': {
      const url = urlFromContentRef(node.data.ref);
      return [{ type: 'link', url, title: 'mention', children: [{ type: 'text', value: url }] }];
    }
    case 'inline-math':
      return [{ type: 'inlineMath', value: node.data.formula }];
    case 'expression':
      return [{ type: 'html', value: `<code class="expression">${gitbookHtmlText(node.data.expression)}</code>` }];
    case 'icon': {
      const style = node.data.color ? ` style="color:${node.data.color};"` : '';
      return [
        {
          type: 'html',
          value: `<i class="fa-${gitbookHtmlAttribute(node.data.icon)}"${style}>:${gitbookHtmlText(node.data.icon)}:</i>`,
        },
      ];
    }
    case 'button':
      return [{ type: 'html', value: buttonHtml(node.data) }];
  }
}

/**
 * A button as GitBook writes it: a link `<a href="…" class="button primary">Label</a>`, an action
 * `<button type="button" class="button primary" data-action="ask" data-query="…">Label</button>` (GitBook's order:
 * type, class, data-action, data-query or data-slug, data-icon).
 */
export function buttonHtml(data: DocumentInlineButton['data']): string {
  const classes = ['button', data.kind, ...(data.size ? [data.size] : [])].join(' ');
  const icon = data.icon ? ` data-icon="${gitbookHtmlAttribute(data.icon)}"` : '';
  const label = gitbookHtmlText(data.label);
  if (!('action' in data))
    return `<a href="${gitbookHtmlAttribute(urlFromContentRef(data.ref))}" class="${classes}"${icon}>${label}</a>`;
  const a = data.action;
  const more =
    a.action === 'select'
      ? ` data-slug="${gitbookHtmlAttribute(a.slug)}"`
      : a.query !== undefined
        ? ` data-query="${gitbookHtmlAttribute(a.query)}"`
        : '';
  return `<button type="button" class="${classes}" data-action="${a.action}"${more}${icon}>${label}</button>`;
}

export const inlinePicture = (node: DocumentInlineImage): Image => ({
  type: 'image',
  url: urlFromRef(node.data.ref),
  alt: node.data.alt ?? '',
  title: captionText(node.data.caption) || null,
});
