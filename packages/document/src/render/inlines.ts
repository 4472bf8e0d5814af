import { TEXT_COLORS } from '@quire/contracts/document';
import { html, join, raw, safeUrl, type Html } from '../html.ts';
import type { DocNode, Ref, RenderContext, Target } from './context.ts';
import { blocksText, inlineText } from './context.ts';
import { renderMath } from './math.ts';

/** The colours a mark can name (GitBook's `DocumentTextColor`), as class names: `$primary` is `primary`. */
const COLORS = new Set(TEXT_COLORS.map((c) => c.replace(/^\$/, '')));
/** The class of a mark's colour (`fg`/`bg`), none for `default` or a colour the contract does not know. */
const colorClass = (kind: 'fg' | 'bg', value: unknown): string => {
  const name = String(value ?? 'default').replace(/^\$/, '');
  return COLORS.has(name) && name !== 'default' ? `${kind}-${name}` : '';
};
const MARK_TAGS: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 's',
  code: 'code',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

type Leaf = NonNullable<DocNode['leaves']>[number];

function leaf(l: Leaf): Html {
  const lines = (l.text ?? '').split('\n');
  let out = join(lines.map((line, i) => (i ? html`<br>${line}` : html`${line}`)));
  for (const mark of l.marks ?? []) {
    const tag = MARK_TAGS[mark.type ?? ''];
    if (tag) out = html`<${tag}>${out}</${tag}>`;
    else if (mark.type === 'color') {
      const cls = [colorClass('fg', mark.data?.text), colorClass('bg', mark.data?.background)]
        .filter(Boolean)
        .join(' ');
      if (cls) out = html`<span class="${cls}">${out}</span>`;
    }
  }
  return out;
}

/** Where a reference goes: a file's signed link, an http(s) URL, a page or anchor of the site; null when nowhere. */
export function hrefOf(ref: Ref | undefined, ctx: RenderContext): Target | null {
  if (!ref) return null;
  if (ref.kind === 'url' && typeof ref.url === 'string') {
    // The content engine stores links between pages as `/pages/<pageId>` (with an optional `#anchor`).
    const page = /^\/pages\/([^/?#]+)(?:#(.*))?$/.exec(ref.url);
    if (page)
      return ctx.resolveRef(
        page[2]
          ? { kind: 'anchor', page: decodeURIComponent(page[1]!), anchor: decodeURIComponent(page[2]) }
          : { kind: 'page', page: decodeURIComponent(page[1]!) },
      );
    const relative =
      !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(ref.url) &&
      !ref.url.startsWith('/') &&
      !ref.url.startsWith('#') &&
      !ref.url.startsWith('?');
    const local = relative ? ctx.resolveRelative(ref.url) : null;
    const href = local ?? safeUrl(ref.url);
    return href === null ? null : { href };
  }
  if (ref.kind === 'file' && ref.file) {
    const file = ctx.files.get(ref.file);
    return file && !ref.space ? { href: file.downloadURL, title: file.name } : null;
  }
  return ctx.resolveRef(ref);
}

/** An image's source: a file of the revision (with its size), or nothing — external images are links. */
export function imageOf(
  ref: Ref | undefined,
  ctx: RenderContext,
): { src: string; width?: number; height?: number } | null {
  if (ref?.kind !== 'file' || !ref.file || ref.space) return null;
  const file = ctx.files.get(ref.file);
  if (!file || !file.contentType.startsWith('image/')) return null;
  return { src: file.downloadURL, ...(file.dimensions ?? {}) };
}

/**
 * An image block's `width` (GitBook's Length: pixels, or `{unit, value}` in `px` or `%`) as what an `<img>` takes: a
 * whole number of pixels (at least 1), or a share of the column (1–100 %); anything else is no width.
 */
function widthOf(width: unknown): { px?: number; percent?: number } {
  const value = typeof width === 'number' ? width : (width as { value?: unknown } | undefined)?.value;
  const unit = typeof width === 'number' ? 'px' : (width as { unit?: unknown } | undefined)?.unit;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return {};
  if (unit === 'px') return { px: Math.max(1, Math.round(value)) };
  if (unit === '%') return { percent: Math.min(100, Math.max(1, Math.round(value))) };
  return {};
}

export function imageTag(ref: Ref | undefined, alt: string, ctx: RenderContext, cls = '', width?: unknown): Html {
  const img = imageOf(ref, ctx);
  if (img) {
    const { px, percent } = widthOf(width);
    const height = px && img.width && img.height ? Math.round((img.height * px) / img.width) : undefined;
    const size = px
      ? html` width="${px}"${height ? html` height="${height}"` : html``}`
      : img.width && img.height
        ? html` width="${img.width}" height="${img.height}"`
        : html``;
    const style = percent ? html` style="width:${percent}%"` : html``;
    return html`<img class="${cls}" src="${img.src}" alt="${alt}"${size}${style} loading="lazy" decoding="async">`;
  }
  // An image of another origin is never loaded by the reader's page: a link to it instead.
  const target = ctx.inLink ? null : hrefOf(ref, ctx);
  return target
    ? html`<a class="external-image" href="${target.href}" rel="noopener nofollow">${alt || 'Image'}</a>`
    : html`${alt}`;
}

function link(node: DocNode, ctx: RenderContext): Html {
  const target = hrefOf(node.data?.ref as Ref | undefined, ctx);
  const content = inlines(node.nodes ?? [], ctx);
  if (!target || ctx.inLink) return content;
  const external = /^(https?:)?\/\//.test(target.href);
  return external
    ? html`<a href="${target.href}" rel="noopener nofollow">${content}</a>`
    : html`<a href="${target.href}">${content}</a>`;
}

function emoji(code: unknown): string {
  if (typeof code !== 'string') return '';
  const points = code.split('-').map((h) => Number.parseInt(h, 16));
  return points.every((p) => Number.isInteger(p) && p > 0 && p <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}

function expression(node: DocNode, ctx: RenderContext): Html {
  const expr = String(node.data?.expression ?? '');
  const m = /^\s*(?:space|page)\.vars\.([A-Za-z_$][\w$]*)\s*$/.exec(expr);
  return html`${m ? (Object.hasOwn(ctx.variables, m[1]!) ? ctx.variables[m[1]!] : '') : ''}`;
}

function inline(node: DocNode, ctx: RenderContext): Html {
  switch (node.type) {
    case 'link':
      return link(node, ctx);
    case 'inline-image':
      return imageTag(node.data?.ref as Ref, String(node.data?.alt ?? node.data?.caption ?? ''), ctx, 'inline-image');
    case 'inline-math':
      return raw(renderMath(String(node.data?.formula ?? ''), false));
    case 'emoji':
      return html`${emoji(node.data?.code)}`;
    case 'icon':
      return icon(node, ctx);
    case 'expression':
      return expression(node, ctx);
    case 'annotation': {
      // a footnote: its number here, its text in the notes after the document (see footnotesOf)
      const body = (node.fragments ?? []).map((f) => blocksText(f.nodes).trim()).join(' ');
      const n = ctx.footnotes.push(body);
      if (ctx.inLink)
        return html`${inlines(node.nodes ?? [], ctx)}<sup class="footnote-ref" id="fnref-${n}">${n}</sup>`;
      const ref = html`<sup class="footnote-ref"><a href="#fn-${n}" id="fnref-${n}" aria-label="${`Note ${n}`}">${n}</a></sup>`;
      return html`${inlines(node.nodes ?? [], ctx)}${ref}`;
    }
    case 'mention': {
      const target = hrefOf(node.data?.ref as Ref, ctx);
      if (target && ctx.inLink) return html`<span class="mention">${target.title ?? target.href}</span>`;
      return target ? html`<a class="mention" href="${target.href}">${target.title ?? target.href}</a>` : html``;
    }
    case 'button': {
      const label = String(node.data?.label ?? '');
      const action = node.data?.action as { action?: unknown; query?: unknown } | undefined;
      // an action (search, ask): the site's search page with its query, when the site has one
      const href =
        action && typeof action.action === 'string'
          ? (ctx.actionHref?.({
              action: action.action,
              query: typeof action.query === 'string' ? action.query : undefined,
            }) ?? null)
          : (hrefOf(node.data?.ref as Ref, ctx)?.href ?? null);
      const cls = buttonClass(node.data);
      const name = typeof node.data?.icon === 'string' ? node.data.icon : '';
      const url = name ? ctx.iconUrl?.(name) : null;
      // the icon is decoration: the label names the button
      const body = url
        ? html`<span class="inline-icon" aria-hidden="true" style="${`--icon:url(${url})`}"></span>${label}`
        : html`${label}`;
      return href !== null && !ctx.inLink
        ? html`<a class="${cls}" href="${href}">${body}</a>`
        : html`<span class="${cls}">${body}</span>`;
    }
    default:
      ctx.logUnknown(`inline:${node.type}`);
      return html`${inlineText(node.nodes)}`;
  }
}

/** Texts and inlines of a paragraph, heading, cell… */
export function inlines(nodes: DocNode[], ctx: RenderContext): Html {
  return join(nodes.map((n) => (n.object === 'text' || n.leaves ? join((n.leaves ?? []).map(leaf)) : inline(n, ctx))));
}

/** The page's footnotes, numbered as referenced, each with a link back to where it is referenced. */
export function footnotesOf(ctx: RenderContext): Html {
  if (ctx.footnotes.length === 0) return html``;
  const items = ctx.footnotes.map(
    (body, i) =>
      html`<li id="fn-${i + 1}">${body.split(/\n+/).join(' ')} <a href="#fnref-${i + 1}" class="footnote-back" aria-label="Back to the text">↩</a></li>`,
  );
  return html`<section class="footnotes" role="doc-endnotes"><ol>${items}</ol></section>`;
}

const BUTTON_SIZES = new Set(['small', 'medium', 'large']);

/** A button's classes: `button`, its kind (`button-secondary`; primary is the default) and its size if it has one. */
function buttonClass(data: DocNode['data']): string {
  const cls = ['button'];
  if (data?.kind === 'secondary') cls.push('button-secondary');
  if (typeof data?.size === 'string' && BUTTON_SIZES.has(data.size)) cls.push(`button-${data.size}`);
  return cls.join(' ');
}

/**
 * GitBook's `icon` inline: the Font Awesome icon as a box the text's colour (or the inline's own colour) fills through
 * the SVG as a mask, with its name for screen readers (it stands in the text as a word would); nothing when the
 * context has no icon of that name.
 */
function icon(node: DocNode, ctx: RenderContext): Html {
  const name = typeof node.data?.icon === 'string' ? node.data.icon : '';
  const url = name ? ctx.iconUrl?.(name) : null;
  if (!url) return html``;
  const cls = ['inline-icon', colorClass('fg', node.data?.color)].filter(Boolean).join(' ');
  return html`<span class="${cls}" role="img" aria-label="${name}" style="${`--icon:url(${url})`}"></span>`;
}
