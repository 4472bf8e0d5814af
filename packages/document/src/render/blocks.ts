import { html, join, raw, type Html } from '../html.ts';
import type { DocNode, Ref, RenderContext } from './context.ts';
import { blocksText, inlineText } from './context.ts';
import { highlight } from './highlight.ts';
import { htmlBlock } from './html-block.ts';
import { hrefOf, imageOf, imageTag, inlines } from './inlines.ts';
import { renderMath } from './math.ts';
import { table } from './table.ts';

/**
 * GitBook's JSON document as HTML, block by block. Every block type of GitBook's document model has its
 * rendering; a block of another type is shown as its text (never dropped) and reported once. Merge conflict
 * blocks are never shown on a published site; `if` blocks show their content only when their condition holds
 * for the visitor.
 */
export async function renderBlocks(nodes: DocNode[] | undefined, ctx: RenderContext): Promise<Html> {
  return join(await Promise.all((nodes ?? []).map((n) => block(n, ctx))));
}

const HINTS: Record<string, string> = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' };
const HEADINGS: Record<string, number> = { 'heading-1': 2, 'heading-2': 3, 'heading-3': 4 };
const fragment = (node: DocNode, ...names: string[]) => node.fragments?.find((f) => names.includes(f.fragment ?? ''));

const ALIGN: Record<string, string> = { start: 'left', center: 'center', end: 'right' };

function paragraph(node: DocNode, ctx: RenderContext): Html {
  const align = ALIGN[String(node.data?.align)];
  const style = align ? html` style="text-align:${align}"` : html``;
  return html`<p${style}>${inlines(node.nodes ?? [], ctx)}</p>`;
}

function heading(node: DocNode, ctx: RenderContext): Html {
  const level = HEADINGS[node.type!]!;
  const text = inlineText(node.nodes).trim();
  const wanted =
    typeof node.data?.id === 'string' && node.data.id
      ? node.data.id
      : typeof node.meta?.id === 'string'
        ? node.meta.id
        : text;
  const id = ctx.slugger.slug(wanted) || ctx.slugger.slug('section');
  ctx.headings.push({ id, text, level });
  const anchor = html`<a class="anchor" href="#${id}" aria-label="${`Link to ${text}`}">#</a>`;
  const align = ALIGN[String(node.data?.align)];
  const style = align ? html` style="text-align:${align}"` : html``;
  return html`<h${level} id="${id}"${style}>${inlines(node.nodes ?? [], ctx)}${anchor}</h${level}>`;
}

async function code(node: DocNode): Promise<Html> {
  const text = (node.nodes ?? []).map((line) => inlineText(line.nodes)).join('\n');
  const title = typeof node.data?.title === 'string' ? node.data.title : '';
  const pre = raw(await highlight(text, typeof node.data?.syntax === 'string' ? node.data.syntax : undefined));
  // `lineNumbers`: the stylesheet numbers each `.line` of the block
  const cls = node.data?.lineNumbers === true ? 'code line-numbers' : 'code';
  return title
    ? html`<figure class="${cls}"><figcaption>${title}</figcaption>${pre}</figure>`
    : html`<div class="${cls}">${pre}</div>`;
}

async function list(node: DocNode, ctx: RenderContext): Promise<Html> {
  const items = await Promise.all(
    (node.nodes ?? []).map(async (item) => {
      const body = await renderBlocks(item.nodes, ctx);
      if (node.type !== 'list-tasks') return html`<li>${body}</li>`;
      const done = item.data?.checked === true;
      const state = html`<span class="sr-only">${done ? 'Done: ' : 'To do: '}</span>`;
      const box = html`<span class="check" aria-hidden="true"></span>${state}`;
      return html`<li class="${done ? 'task done' : 'task'}">${box}${body}</li>`;
    }),
  );
  if (node.type === 'list-ordered') {
    const start =
      typeof node.data?.start === 'number' && node.data.start !== 1 ? html` start="${node.data.start}"` : html``;
    return html`<ol${start}>${items}</ol>`;
  }
  return html`<ul class="${node.type === 'list-tasks' ? 'tasks' : ''}">${items}</ul>`;
}

async function tabs(node: DocNode, ctx: RenderContext): Promise<Html> {
  const group = ctx.nextId('tabs');
  const items = (node.nodes ?? []).slice(0, 12);
  const panels = await Promise.all(items.map((t) => renderBlocks(t.nodes, ctx)));
  const controls = items.map((t, i) => {
    const title = typeof t.data?.title === 'string' && t.data.title ? t.data.title : `Tab ${i + 1}`;
    const checked = i === 0 ? html` checked` : html``;
    const input = html`<input class="tab-input" type="radio" name="${group}" id="${group}-${i}"${checked}>`;
    return html`${input}<label class="tab-label" for="${group}-${i}">${title}</label>`;
  });
  const bodies = panels.map((p, i) => html`<div class="tab-panel" data-tab="${i}">${p}</div>`);
  return html`<div class="tabs" data-count="${items.length}">${controls}${bodies}</div>`;
}

async function expandable(node: DocNode, ctx: RenderContext): Promise<Html> {
  const title = fragment(node, 'expandable-title', 'title');
  const body = fragment(node, 'expandable-body', 'body');
  const open = node.data?.defaultExpanded === true ? html` open` : html``;
  const summary = html`<summary>${title ? inlinesOf(title, ctx) : 'Details'}</summary>`;
  const content = html`<div class="expandable-body">${await renderBlocks(body?.nodes, ctx)}</div>`;
  return html`<details class="expandable"${open}>${summary}${content}</details>`;
}

/** The inline content of a fragment of paragraphs (a title). */
const inlinesOf = (f: DocNode, ctx: RenderContext) =>
  join(
    (f.nodes ?? []).map((p) => inlines(p.nodes ?? [], ctx)),
    ' ',
  );

async function images(node: DocNode, ctx: RenderContext): Promise<Html> {
  const figures = (node.nodes ?? []).map((img) => {
    const alt = String(img.data?.alt ?? '');
    const caption = fragment(img, 'caption');
    const captionHtml =
      caption && blocksText(caption.nodes).trim() ? html`<figcaption>${inlinesOf(caption, ctx)}</figcaption>` : html``;
    return html`<figure class="image">${picture(img, alt, ctx)}${captionHtml}</figure>`;
  });
  return html`<div class="images">${figures}</div>`;
}

/** An image, with its dark-mode variant (`refDark`) as a `<source>` the browser picks in dark mode. */
function picture(img: DocNode, alt: string, ctx: RenderContext): Html {
  const light = imageTag(img.data?.ref as Ref, alt, ctx, '', img.data?.width);
  const dark = imageOf(img.data?.refDark as Ref | undefined, ctx);
  if (!dark || !imageOf(img.data?.ref as Ref, ctx)) return light;
  return html`<picture><source srcset="${dark.src}" media="(prefers-color-scheme: dark)">${light}</picture>`;
}

function fileCard(node: DocNode, ctx: RenderContext): Html {
  const ref = node.data?.ref as Ref | undefined;
  const file = ref?.file && !ref.space ? ctx.files.get(ref.file) : undefined;
  if (!file) return html``;
  const kb = Math.max(1, Math.round(file.size / 1024));
  const link = html`<a href="${file.downloadURL}">${file.name}</a>`;
  return html`<p class="file-card">${link} <span class="meta">${kb} KB</span></p>`;
}

function embed(node: DocNode, ctx: RenderContext): Html {
  const target = hrefOf({ kind: 'url', url: String(node.data?.url ?? '') }, ctx);
  if (!target) return html``;
  let host = target.href;
  try {
    host = new URL(target.href).host;
  } catch {
    // a relative URL: shown as it is
  }
  const label = html`<span class="embed-host">${host}</span><span class="embed-url">${target.href}</span>`;
  const card = html`<p class="embed-card"><a href="${target.href}" rel="noopener nofollow">${label}</a></p>`;
  const caption = typeof node.data?.caption === 'string' ? node.data.caption.trim() : '';
  return caption ? html`<figure class="embed">${card}<figcaption>${caption}</figcaption></figure>` : card;
}

function contentRef(node: DocNode, ctx: RenderContext): Html {
  const target = hrefOf(node.data?.ref as Ref, ctx);
  if (!target) return html``;
  return html`<p class="content-ref"><a href="${target.href}">${target.title ?? target.href}</a></p>`;
}

async function container(tag: string, cls: string, node: DocNode, ctx: RenderContext): Promise<Html> {
  return html`<${tag} class="${cls}">${await renderBlocks(node.nodes, ctx)}</${tag}>`;
}

async function hint(node: DocNode, ctx: RenderContext): Promise<Html> {
  const style = HINTS[String(node.data?.style)] ? String(node.data?.style) : 'info';
  const label = html`<p class="hint-label">${HINTS[style]}</p>`;
  return html`<div class="hint hint-${style}" role="note">${label}${await renderBlocks(node.nodes, ctx)}</div>`;
}

async function stepper(node: DocNode, ctx: RenderContext): Promise<Html> {
  const step = async (s: DocNode) => html`<li class="step">${await renderBlocks(s.nodes, ctx)}</li>`;
  return html`<ol class="stepper">${await Promise.all((node.nodes ?? []).map(step))}</ol>`;
}

async function columns(node: DocNode, ctx: RenderContext): Promise<Html> {
  const cells = (node.nodes ?? []).map((c) => container('div', 'column', c, ctx));
  return html`<div class="columns">${await Promise.all(cells)}</div>`;
}

/** An `if` block: its content when its condition holds for the visitor. */
function conditional(node: DocNode, ctx: RenderContext): Html | Promise<Html> {
  const condition = String(node.data?.expression ?? node.data?.condition ?? '');
  return ctx.conditionHolds(condition) ? renderBlocks(node.nodes, ctx) : html``;
}

async function update(node: DocNode, ctx: RenderContext): Promise<Html> {
  const date = typeof node.data?.date === 'string' ? node.data.date.slice(0, 10) : '';
  const when = date ? html`<p class="meta"><time datetime="${date}">${date}</time></p>` : html``;
  return html`<section class="update">${when}${await renderBlocks(node.nodes, ctx)}</section>`;
}

/** A prompt: its description, then its text as code (to copy). */
async function prompt(node: DocNode, ctx: RenderContext): Promise<Html> {
  const description = typeof node.data?.description === 'string' ? node.data.description : '';
  const head = description ? html`<p class="prompt-description">${description}</p>` : html``;
  return html`<div class="prompt">${head}${await renderBlocks(node.nodes, ctx)}</div>`;
}

/** A merge conflict never reaches a live revision; should one, it is not shown to readers. */
function conflict(node: DocNode, ctx: RenderContext): Html {
  ctx.logUnknown(`block:${node.type}`);
  return html``;
}

type BlockRenderer = (node: DocNode, ctx: RenderContext) => Html | Promise<Html>;

/** The rendering of each block type of GitBook's document model. */
const BLOCKS = new Map<string, BlockRenderer>([
  ['paragraph', paragraph],
  ['html', htmlBlock],
  ['heading-1', heading],
  ['heading-2', heading],
  ['heading-3', heading],
  ['list-ordered', list],
  ['list-unordered', list],
  ['list-tasks', list],
  ['blockquote', (node, ctx) => container('blockquote', 'quote', node, ctx)],
  ['hint', hint],
  ['code', code],
  ['divider', () => html`<hr>`],
  ['table', table],
  ['images', images],
  ['image', (node, ctx) => images({ nodes: [node] }, ctx)],
  ['file', fileCard],
  ['embed', embed],
  ['math', (node) => html`<div class="math">${raw(renderMath(String(node.data?.formula ?? ''), true))}</div>`],
  ['tabs', tabs],
  ['expandable', expandable],
  ['stepper', stepper],
  ['columns', columns],
  ['content-ref', contentRef],
  ['if', conditional],
  ['prompt', prompt],
  ['updates', (node, ctx) => container('div', 'updates', node, ctx)],
  ['update', update],
  ['conflict', conflict],
  ['conflict-side', conflict],
]);

async function block(node: DocNode, ctx: RenderContext): Promise<Html> {
  const render = BLOCKS.get(node.type ?? '');
  if (render) return render(node, ctx);
  ctx.logUnknown(`block:${node.type}`);
  return unknown(node);
}

/** A block the renderer does not know: its text, paragraph by paragraph. */
function unknown(node: DocNode): Html {
  const text = blocksText([node]).trim();
  if (!text) return html``;
  return html`<div class="unknown-block">${text.split(/\n+/).map((line) => html`<p>${line}</p>`)}</div>`;
}
