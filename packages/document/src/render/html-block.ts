import type { Element, ElementContent, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { html, raw, type Html } from '../html.ts';
import type { DocNode, Ref, RenderContext } from './context.ts';
import { hrefOf, imageOf } from './inlines.ts';

/**
 * Quire's `html` block (HTML GitBook has no block for, kept as written: `<p align="center">`, tables with column
 * widths, `<div>`s…) shown as HTML, never as text, and never as it is: parsed (parse5), its references resolved
 * like the document's (`gitbook-file:<id>` a revision file's signed link, `/pages/<id>` and relative `.md` paths
 * the site's URLs), an image of another origin made a link (as the document's images), then sanitised with
 * GitHub's rules (hast-util-sanitize's default schema, plus GitBook's figures and marks): no script, no event
 * handler, no style, no `javascript:` URL.
 */
const SCHEMA: Schema = {
  ...defaultSchema,
  tagNames: [
    ...(defaultSchema.tagNames ?? []),
    'figure',
    'figcaption',
    'mark',
    'u',
    'small',
    'caption',
    'colgroup',
    'col',
  ],
  attributes: {
    ...defaultSchema.attributes,
    img: [...(defaultSchema.attributes?.img ?? []), 'loading', 'decoding'],
    a: [...(defaultSchema.attributes?.a ?? []), 'rel'],
  },
};

/** HTML longer than this is not shown (a page's HTML blocks are small; the limit bounds the work of one render). */
const MAX_HTML = 256 * 1024;

export function htmlBlock(node: DocNode, ctx: RenderContext): Html {
  const source = typeof node.data?.html === 'string' ? node.data.html : '';
  if (!source.trim() || source.length > MAX_HTML) return html``;
  const tree = fromHtml(source, { fragment: true });
  resolveUrls(tree, ctx);
  return raw(`<div class="html-block">${toHtml(sanitize(tree, SCHEMA))}</div>`);
}

/** A reference written in HTML (`gitbook-file:<id>`, `/pages/<id>#a`, `../a.md`, `https://…`) as a `Ref`. */
function refOf(url: string): Ref {
  const file = /^gitbook-file:([^?#]+)/.exec(url);
  if (file) return { kind: 'file', file: safeDecode(file[1]!) };
  return { kind: 'url', url };
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

function resolveUrls(tree: Root, ctx: RenderContext): void {
  const work: (Root | Element)[] = [tree];
  for (let parent = work.pop(); parent; parent = work.pop()) {
    parent.children = parent.children.map((child) => {
      if (child.type !== 'element') return child;
      const replaced = resolveElement(child, ctx);
      if (replaced.type === 'element') work.push(replaced);
      return replaced;
    }) as typeof parent.children;
  }
}

function resolveElement(el: Element, ctx: RenderContext): ElementContent {
  const p = el.properties;
  if (typeof p.href === 'string') p.href = hrefOf(refOf(p.href), ctx)?.href ?? undefined;
  if (el.tagName === 'source' && p.srcSet !== undefined) {
    const src = Array.isArray(p.srcSet) ? p.srcSet.join(' ') : String(p.srcSet);
    p.srcSet = imageOf(refOf(src.trim()), ctx)?.src ?? undefined;
  }
  if (el.tagName !== 'img' || typeof p.src !== 'string') return el;
  const image = imageOf(refOf(p.src), ctx);
  if (image) {
    p.src = image.src;
    p.loading = 'lazy';
    p.decoding = 'async';
    return el;
  }
  // an image of another origin is never loaded by the reader's page: a link to it instead
  const target = hrefOf(refOf(p.src), ctx);
  const alt = typeof p.alt === 'string' && p.alt ? p.alt : 'Image';
  if (!target) return { type: 'text', value: typeof p.alt === 'string' ? p.alt : '' };
  return {
    type: 'element',
    tagName: 'a',
    properties: { href: target.href, rel: ['noopener', 'nofollow'] },
    children: [{ type: 'text', value: alt }],
  };
}
