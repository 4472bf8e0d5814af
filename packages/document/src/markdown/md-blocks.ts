import type { Code, RootContent } from 'mdast';
import {
  HINT_STYLES,
  type DocumentBlockCode,
  type DocumentBlockColumn,
  type DocumentBlockConflictSide,
  type DocumentBlockStepperStep,
  type DocumentBlockTabsItem,
  type DocumentBlockPrompt,
  type DocumentBlockTopLevel,
  type DocumentBlockUpdate,
  type DocumentExpandableChild,
  type DocumentHintChild,
  type DocumentHintStyle,
  type Length,
} from '@quire/contracts/document';
import { contain, type AnyBlock } from './containment.ts';
import { decodeEntities, textParagraph, type Container, type Ctx } from './md-context.ts';
import { pieces, plainText } from './md-inlines.ts';
import { phrasingNodes } from './leaves.ts';
import { contentRefFromUrl, refFromUrl } from '../refs.ts';
import { parseTag, type ParsedTag } from './tag-attributes.ts';
import type { TagBlock } from './tag-blocks.ts';

/**
 * GitBook's blocks written with tags (paired into tagBlocks by tag-blocks.ts, or alone on their line), read
 * into GitBook blocks. A tag the converter does not know, or a known one holding what it cannot hold, keeps its
 * tag lines as raw text around its content: nothing is dropped.
 */

/** A tag line kept as written: a paragraph of its text (written back verbatim, see document-to-markdown). */
export const tagLine = (value: string) => textParagraph(value.trim());

const isHintStyle = (s: string): s is DocumentHintStyle => HINT_STYLES.some((h) => h === s);
const bool = (value: string | undefined) => (value === 'true' ? true : value === 'false' ? false : undefined);
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function tagBlock(node: TagBlock, container: Container, ctx: Ctx): DocumentBlockTopLevel[] {
  const made = node.syntax === 'html' ? htmlBlock(node, ctx) : liquidBlock(node, container, ctx);
  if (made) return made;
  return [tagLine(node.open), ...ctx.flow(node.children, container, ctx), tagLine(node.close)];
}

function liquidBlock(node: TagBlock, container: Container, ctx: Ctx): DocumentBlockTopLevel[] | null {
  const tag = parseTag(node.open);
  if (!tag) return null;
  const content = () => ctx.flow(node.children, containerOf(tag.name), ctx);
  switch (tag.name) {
    case 'hint':
      return hint(tag, content);
    case 'tabs':
    case 'stepper':
    case 'columns':
      return blockOfItems(node, tag.name, ctx);
    case 'code':
      return codeWithOptions(node, tag);
    case 'prompt':
      return prompt(node, tag);
    case 'updates':
      return container === 'document' ? updates(node, tag, ctx) : null;
    case 'if':
      return condition(tag, content);
    case 'conflict':
      return container === 'document' ? conflict(node, ctx) : null;
    case 'swagger':
    case 'openapi':
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return specLinkOnly(node) ? openapiBlock(tag) : null;
    default:
      return onlyCaption(node, ctx) === null ? null : leafTag(tag, onlyCaption(node, ctx) ?? '');
  }
}

/** `{% hint style="…" %}`: a hint of a style GitBook knows, its content read in it. */
function hint(tag: ParsedTag, content: () => DocumentBlockTopLevel[]): DocumentBlockTopLevel[] | null {
  const style = tag.attributes.style;
  if (style === undefined || !isHintStyle(style)) return null;
  const icon = tag.attributes.icon;
  return contain<DocumentHintChild>('hint', content(), (nodes) => ({
    object: 'block',
    type: 'hint',
    data: defined({ style, icon }),
    nodes,
  }));
}

/** `{% if expression %}`: a condition, its content read in it; without an expression, not one. */
function condition(tag: ParsedTag, content: () => DocumentBlockTopLevel[]): DocumentBlockTopLevel[] | null {
  return tag.args === ''
    ? null
    : contain<DocumentBlockTopLevel>('if', content(), (nodes) => ({
        object: 'block',
        type: 'if',
        data: { expression: tag.args },
        nodes,
      }));
}

/** Tabs, a stepper or columns: a block of items, each read from its own tag. */
function blockOfItems(node: TagBlock, name: 'tabs' | 'stepper' | 'columns', ctx: Ctx): DocumentBlockTopLevel[] | null {
  const wrap = (nodes: AnyBlock[]) =>
    ({
      object: 'block',
      type: name,
      data: {},
      nodes,
      ...(name === 'columns' ? { isVoid: false } : {}),
    }) as DocumentBlockTopLevel;
  switch (name) {
    case 'tabs':
      return items(node, 'tab', ctx, tabsItem, wrap);
    case 'stepper':
      return items(node, 'step', ctx, step, wrap);
    case 'columns':
      return items(node, 'column', ctx, column, wrap);
  }
}

const CONTAINER_OF: Record<string, Container> = { hint: 'hint', if: 'if' };
const containerOf = (name: string): Container => CONTAINER_OF[name] ?? 'document';

/**
 * GitBook's Git Sync writes an OpenAPI block's spec as a link between its tags (`[OpenAPI petstore](url)`, the
 * spec's source; swagger's `src`): the block's `ref` stands for it, so it is read when that link is all there
 * is (or nothing at all); anything else keeps the tags as text.
 */
function specLinkOnly(node: TagBlock): boolean {
  if (node.children.length === 0) return true;
  const [only, ...rest] = node.children;
  if (rest.length > 0 || only?.type !== 'paragraph') return false;
  return only.children.length === 1 && only.children[0]?.type === 'link';
}

/** The plain text of a tagBlock holding at most one paragraph (a caption GitBook writes inside some tags). */
function onlyCaption(node: TagBlock, ctx: Ctx): string | null {
  if (node.children.length === 0) return '';
  const [only, ...rest] = node.children;
  if (rest.length > 0 || only?.type !== 'paragraph') return null;
  return plainText(phrasingNodes(pieces(only.children, 0, ctx))).trim();
}

/**
 * A tags-written block of items (tabs, stepper, columns): each child must be an item tagBlock; blocks an item may
 * not hold are lifted out between two blocks of items.
 */
function items(
  node: TagBlock,
  itemName: string,
  ctx: Ctx,
  item: (child: TagBlock, tag: ParsedTag, ctx: Ctx) => AnyBlock[],
  wrap: (nodes: AnyBlock[]) => DocumentBlockTopLevel,
): DocumentBlockTopLevel[] | null {
  const made: AnyBlock[] = [];
  for (const child of node.children) {
    const tag = child.type === 'tagBlock' && child.syntax === 'liquid' ? parseTag(child.open) : null;
    if (child.type !== 'tagBlock' || tag?.name !== itemName) return null;
    made.push(...item(child, tag, ctx));
  }
  if (made.length === 0) return [wrap([])];
  const itemType = made[0]?.type;
  return groupItems(made, (b) => b.type === itemType && ['tabs-item', 'stepper-step', 'column'].includes(b.type), wrap);
}

function groupItems(
  blocks: AnyBlock[],
  isItem: (b: AnyBlock) => boolean,
  wrap: (nodes: AnyBlock[]) => DocumentBlockTopLevel,
) {
  const out: DocumentBlockTopLevel[] = [];
  let run: AnyBlock[] = [];
  for (const b of blocks) {
    if (isItem(b)) {
      run.push(b);
      continue;
    }
    if (run.length > 0) out.push(wrap(run));
    run = [];
    out.push(b as DocumentBlockTopLevel);
  }
  if (run.length > 0) out.push(wrap(run));
  return out;
}

/** An item (a tab, a step, a column) holding what its tag encloses, split where a block may not stand in it. */
function itemOf<B extends DocumentBlockTabsItem | DocumentBlockStepperStep | DocumentBlockColumn | DocumentBlockUpdate>(
  type: B['type'],
  data: B['data'],
  child: TagBlock,
  ctx: Ctx,
): AnyBlock[] {
  return contain(
    type,
    ctx.flow(child.children, type, ctx),
    (nodes: B['nodes']) => ({ object: 'block', type, data, nodes }) as B,
  );
}

const tabsItem = (child: TagBlock, tag: ParsedTag, ctx: Ctx) =>
  itemOf<DocumentBlockTabsItem>(
    'tabs-item',
    defined({ title: tag.attributes.title, icon: tag.attributes.icon }),
    child,
    ctx,
  );

const step = (child: TagBlock, tag: ParsedTag, ctx: Ctx) =>
  itemOf<DocumentBlockStepperStep>('stepper-step', defined({ icon: tag.attributes.icon }), child, ctx);

function column(child: TagBlock, tag: ParsedTag, ctx: Ctx): AnyBlock[] {
  const valign = tag.attributes.valign;
  const verticalAlignment: DocumentBlockColumn['data']['verticalAlignment'] =
    valign === 'top' || valign === 'middle' || valign === 'bottom' ? valign : undefined;
  const data = defined({ width: lengthOf(tag.attributes.width), verticalAlignment });
  return itemOf<DocumentBlockColumn>('column', data, child, ctx);
}

/** `50%` → `{ unit: '%', value: 50 }`, `200` → 200. */
export function lengthOf(text: string | undefined): Length | undefined {
  const match = text === undefined ? null : /^(-?\d+(?:\.\d+)?)([a-z%]*)$/i.exec(text.trim());
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  return match[2] ? { unit: match[2], value } : value;
}
export const lengthText = (length: Length) =>
  typeof length === 'number' ? String(length) : `${length.value}${length.unit}`;

/** `{% prompt description="…" %}` around one fence (or one `{% code %}` block): a prompt. */
function prompt(node: TagBlock, tag: ParsedTag): DocumentBlockTopLevel[] | null {
  const a = tag.attributes;
  const known = ['description', 'icon', 'openInAIProviders', 'defaultExpanded'];
  if (a.description === undefined || tag.positional.length > 0 || Object.keys(a).some((k) => !known.includes(k)))
    return null;
  const [only, ...rest] = node.children;
  const inner = only?.type === 'tagBlock' && only.syntax === 'liquid' ? parseTag(only.open) : null;
  const fence =
    rest.length > 0
      ? null
      : only?.type === 'code'
        ? [code(only)]
        : inner?.name === 'code'
          ? codeWithOptions(only as TagBlock, inner)
          : null;
  const [block] = fence ?? [];
  if (block?.type !== 'code') return null;
  const expanded = a.defaultExpanded;
  const defaultExpanded: DocumentBlockPrompt['data']['defaultExpanded'] =
    expanded === 'hidden' || expanded === 'partial' || expanded === 'full' ? expanded : undefined;
  if (expanded !== undefined && defaultExpanded === undefined) return null;
  const data = defined({
    description: a.description,
    icon: a.icon,
    openInAIProviders: bool(a.openInAIProviders),
    defaultExpanded,
  });
  return [{ object: 'block', type: 'prompt', data, nodes: [block] }];
}

/** `{% updates format="…" %}` holding `{% update date="…" %}` items: a changelog (at the top of a page only). */
function updates(node: TagBlock, tag: ParsedTag, ctx: Ctx): DocumentBlockTopLevel[] | null {
  const format = tag.attributes.format ?? 'full';
  if (format !== 'numeric' && format !== 'full' && format !== 'short') return null;
  if (Object.keys(tag.attributes).some((k) => k !== 'format') || tag.positional.length > 0) return null;
  const made: DocumentBlockUpdate[] = [];
  for (const child of node.children) {
    const item = child.type === 'tagBlock' && child.syntax === 'liquid' ? parseTag(child.open) : null;
    const date = item?.attributes.date;
    if (item?.name !== 'update' || date === undefined || Object.keys(item.attributes).length !== 1) return null;
    const blocks = itemOf<DocumentBlockUpdate>('update', { date }, child as TagBlock, ctx);
    // an update holds what GitBook lets it hold; anything else keeps the whole changelog as text
    if (blocks.length !== 1 || blocks[0]?.type !== 'update') return null;
    made.push(blocks[0]);
  }
  return [{ object: 'block', type: 'updates', data: { format }, nodes: made }];
}

function codeWithOptions(node: TagBlock, tag: ParsedTag): DocumentBlockTopLevel[] | null {
  const [fence, ...rest] = node.children;
  if (rest.length > 0 || fence?.type !== 'code') return null;
  const block = code(fence);
  const a = tag.attributes;
  const overflow: DocumentBlockCode['data']['overflow'] =
    a.overflow === 'wrap' || a.overflow === 'scroll' ? a.overflow : undefined;
  const count = a.collapsedLineCount === undefined ? undefined : Number(a.collapsedLineCount);
  const collapsedLineCount = count !== undefined && Number.isInteger(count) && count >= 1 ? count : undefined;
  const options = defined({
    title: a.title || undefined,
    overflow,
    lineNumbers: bool(a.lineNumbers),
    fullWidth: bool(a.fullWidth),
    expandable: bool(a.expandable),
    collapsedLineCount,
  });
  return [{ ...block, data: { ...block.data, ...options } }];
}

const TITLE = /(?:^|\s)title="((?:[^"\\]|\\.)*)"/;

/** A fence; a `title="…"` after the language (Quire's former way) is the title too. */
export function code(node: Code): DocumentBlockCode {
  const title = node.meta ? TITLE.exec(node.meta)?.[1]?.replace(/\\(.)/g, '$1') : undefined;
  return {
    object: 'block',
    type: 'code',
    data: { ...(node.lang ? { syntax: node.lang } : {}), ...(title ? { title } : {}) },
    nodes: node.value.split('\n').map((line) => ({
      object: 'block',
      type: 'code-line',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
    })),
  };
}

function conflict(node: TagBlock, ctx: Ctx): DocumentBlockTopLevel[] | null {
  const sides: DocumentBlockConflictSide[] = [];
  for (const child of node.children) {
    const tag = child.type === 'tagBlock' && child.syntax === 'liquid' ? parseTag(child.open) : null;
    if (child.type !== 'tagBlock' || tag?.name !== 'conflict-side') return null;
    const nodes = ctx.flow(child.children, 'conflict-side', ctx);
    sides.push({
      object: 'block',
      type: 'conflict-side',
      data: { title: tag.attributes.title ?? '' },
      nodes,
      isVoid: false,
    });
  }
  return [{ object: 'block', type: 'conflict', data: {}, nodes: sides, isVoid: false }];
}

/** A tag alone on its line: a void GitBook block, or null when the tag is not one (it stays text). */
export function liquidLeaf(value: string): DocumentBlockTopLevel | null {
  const tag = parseTag(value);
  return tag ? ((leafTag(tag, '') ?? [])[0] ?? null) : null;
}

function leafTag(tag: ParsedTag, caption: string): DocumentBlockTopLevel[] | null {
  const a = tag.attributes;
  if (!tag.clean) return null;
  const only = (...names: string[]) => Object.keys(a).every((k) => names.includes(k)) && tag.positional.length === 0;
  switch (tag.name) {
    case 'embed': {
      if (!only('url', 'fullWidth') || a.url === undefined) return null;
      const data = defined({ url: a.url, fullWidth: bool(a.fullWidth), caption: caption || undefined });
      return [{ object: 'block', type: 'embed', data, isVoid: true }];
    }
    case 'content-ref':
      if (!only('url') || a.url === undefined) return null;
      return [{ object: 'block', type: 'content-ref', data: { ref: contentRefFromUrl(a.url) }, isVoid: true }];
    case 'file': {
      const ref = a.src === undefined ? null : refFromUrl(a.src);
      if (!only('src') || ref?.kind !== 'file') return null;
      return [{ object: 'block', type: 'file', data: defined({ ref, caption: caption || undefined }), isVoid: true }];
    }
    case 'drawing': {
      const ref = a.src === undefined ? undefined : refFromUrl(a.src);
      if (!only('src') || caption !== '' || (ref && ref.kind !== 'file')) return null;
      return [{ object: 'block', type: 'drawing', data: ref?.kind === 'file' ? { ref } : {}, isVoid: true }];
    }
    case 'include':
      return includeBlock(tag, caption);
    case 'swagger':
    case 'openapi':
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return openapiBlock(tag);
    case 'integration':
      return integrationBlock(tag, caption);
    default:
      return null;
  }
}

function includeBlock(tag: ParsedTag, caption: string): DocumentBlockTopLevel[] | null {
  const [id, ...more] = tag.positional;
  const keys = Object.keys(tag.attributes);
  if (!id || more.length > 0 || caption !== '' || keys.some((k) => k !== 'space')) return null;
  const ref = {
    kind: 'reusable-content' as const,
    reusableContent: id,
    ...(tag.attributes.space ? { space: tag.attributes.space } : {}),
  };
  return [{ object: 'block', type: 'reusable-content', data: { ref }, isVoid: true }];
}

function openapiBlock(tag: ParsedTag): DocumentBlockTopLevel[] | null {
  const a = tag.attributes;
  if (tag.positional.length > 0) return null;
  const spec = a.spec ? { kind: 'openapi' as const, spec: a.spec } : null;
  const known = (...names: string[]) => Object.keys(a).every((k) => names.includes(k));
  if (
    (tag.name === 'swagger' || tag.name === 'openapi') &&
    a.src !== undefined &&
    a.path !== undefined &&
    a.method !== undefined &&
    known('src', 'path', 'method', 'expanded', 'fullWidth')
  ) {
    const data = defined({
      ref: refFromUrl(a.src),
      path: a.path,
      method: a.method,
      expanded: bool(a.expanded),
      fullWidth: bool(a.fullWidth),
      tag: tag.name === 'openapi' ? ('openapi' as const) : undefined,
    });
    return [{ object: 'block', type: 'swagger', data, isVoid: true }];
  }
  if (!spec) return null;
  if (
    tag.name === 'openapi-operation' &&
    a.path !== undefined &&
    a.method !== undefined &&
    known('spec', 'path', 'method')
  ) {
    return [
      { object: 'block', type: 'openapi-operation', data: { ref: spec, path: a.path, method: a.method }, isVoid: true },
    ];
  }
  if (
    tag.name === 'openapi-webhook' &&
    a.name !== undefined &&
    a.method !== undefined &&
    known('spec', 'name', 'method')
  ) {
    return [
      { object: 'block', type: 'openapi-webhook', data: { ref: spec, name: a.name, method: a.method }, isVoid: true },
    ];
  }
  if (tag.name === 'openapi-schemas' && a.schemas !== undefined && known('spec', 'schemas', 'grouped', 'title')) {
    const schemas = a.schemas
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const data = defined({ ref: spec, schemas, grouped: bool(a.grouped), title: a.title });
    return [{ object: 'block', type: 'openapi-schemas', data, isVoid: true }];
  }
  return null;
}

/** An integration block, opaque: its whole `data` as JSON (`{% integration data="{…}" %}`). */
function integrationBlock(tag: ParsedTag, caption: string): DocumentBlockTopLevel[] | null {
  if (caption !== '' || tag.attributes.data === undefined || Object.keys(tag.attributes).length !== 1) return null;
  try {
    const data: unknown = JSON.parse(tag.attributes.data);
    const d = data as { integration?: unknown; block?: unknown; props?: unknown };
    if (typeof d !== 'object' || d === null || typeof d.integration !== 'string' || typeof d.block !== 'string')
      return null;
    if (typeof d.props !== 'object' || d.props === null || Array.isArray(d.props)) return null;
    return [{ object: 'block', type: 'integration', data: data as never, isVoid: true }];
  } catch {
    return null;
  }
}

// ── HTML blocks ─────────────────────────────────────────────────────────────────────────────────────────

const SUMMARY = /^<summary>([\s\S]*)<\/summary>$/i;

/** `<details>` (`open` when it starts expanded), `<summary>Title</summary>`, the body: an expandable block. */
function htmlBlock(node: TagBlock, ctx: Ctx): DocumentBlockTopLevel[] | null {
  if (node.name !== 'details') return null;
  const [first, ...body] = node.children;
  const title = first?.type === 'html' ? SUMMARY.exec(first.value.trim())?.[1] : undefined;
  if (title === undefined) return null;
  const defaultExpanded = /\sopen(?:\s|=|>)/i.test(node.open) ? true : undefined;
  const titleParagraph = textParagraph(
    decodeEntities(title.replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return contain<DocumentExpandableChild>(
    'expandable',
    ctx.flow(body as RootContent[], 'expandable', ctx),
    (nodes) => ({
      object: 'block',
      type: 'expandable',
      data: defined({ defaultExpanded }),
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [titleParagraph] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes },
      ],
      isVoid: true,
    }),
  );
}
