// GitBook's JSON document <-> the editor's (TipTap/ProseMirror) JSON (`@quire/document/editor`). Pure functions: no
// DOM, no React, no TipTap import: the app's editor (app/src/editor/schema.ts holds the schema these JSON nodes
// follow) and the collaboration server (services/content/src/modules/collab) both use them. documentToEditor then editorToDocument is the
// identity (see app/src/editor/convert.test.ts); a block this module cannot map is kept whole in an `opaque` node.
import type { JSONDocument } from '@quire/contracts';

/** A node of the editor's JSON (TipTap's `JSONContent`). */
export interface EditorNode {
  type: string;
  attrs?: Record<string, any>;
  content?: EditorNode[];
  marks?: EditorMark[];
  text?: string;
}
export interface EditorMark {
  type: string;
  attrs?: Record<string, any>;
}
/** Any node of GitBook's document (block, inline, text, leaf, fragment). */
export type DocNode = Record<string, any>;

class Unmappable extends Error {}
const fail = (why: string): never => {
  throw new Unmappable(why);
};

/** Same JSON value, whatever the order of object keys. */
export function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJSON(x, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as any)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as any)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJSON((a as any)[k], (b as any)[k]));
}

const omit = (o: DocNode, keys: readonly string[]): Record<string, any> | null => {
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k) && v !== undefined) out[k] = v;
  return Object.keys(out).length ? out : null;
};

// ── Names ────────────────────────────────────────────────────────────────────────────────────────────────

/** Containers: GitBook type -> editor node type (their children are blocks). */
const CONTAINERS: Record<string, string> = {
  blockquote: 'blockquote',
  hint: 'hint',
  tabs: 'tabs',
  'tabs-item': 'tabsItem',
  stepper: 'stepper',
  'stepper-step': 'stepperStep',
  updates: 'updates',
  update: 'update',
  columns: 'columns',
  column: 'column',
  if: 'conditional',
  conflict: 'conflict',
  'conflict-side': 'conflictSide',
  images: 'images',
  'list-unordered': 'bulletList',
  'list-ordered': 'orderedList',
  'list-tasks': 'taskList',
};
/** Void blocks: GitBook type -> editor atom node type (everything but `key` and `data` kept in `rest`). */
export const VOID_BLOCKS: Record<string, string> = {
  divider: 'horizontalRule',
  html: 'htmlBlock',
  math: 'mathBlock',
  embed: 'embed',
  'content-ref': 'contentRef',
  file: 'file',
  drawing: 'drawing',
  'reusable-content': 'reusableContent',
  swagger: 'swagger',
  'openapi-operation': 'openapiOperation',
  'openapi-schemas': 'openapiSchemas',
  'openapi-webhook': 'openapiWebhook',
  integration: 'integration',
  prompt: 'prompt',
  image: 'image',
};
/** Void inlines: GitBook type -> editor inline atom node type. */
export const VOID_INLINES: Record<string, string> = {
  emoji: 'emoji',
  icon: 'icon',
  expression: 'expression',
  'inline-math': 'inlineMath',
  mention: 'mention',
  button: 'button',
  'inline-image': 'inlineImage',
};
/** Marks of a leaf: GitBook type -> editor mark type; a leaf lists them in this order, color last. */
const MARKS: Record<string, string> = {
  bold: 'bold',
  italic: 'italic',
  strikethrough: 'strike',
  code: 'code',
  keyboard: 'keyboard',
  superscript: 'superscript',
  subscript: 'subscript',
  color: 'textColor',
};
const MARK_ORDER = Object.keys(MARKS);
const invert = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [v, k]));
const FROM_CONTAINER = invert(CONTAINERS);
const FROM_VOID = invert(VOID_BLOCKS);
const FROM_INLINE = invert(VOID_INLINES);
const FROM_MARK = invert(MARKS);

/** The editor node types whose children are blocks (for the schema), and the void ones. */
export const EDITOR_CONTAINER_TYPES = Object.values(CONTAINERS);

/** `data` a block made in the editor gets, and whether it says `isVoid` (GitBook requires it on some). */
const NEW_BLOCK: Record<string, { data?: Record<string, unknown>; isVoid?: boolean }> = {
  paragraph: { data: {} },
  heading: { data: {} },
  code: { data: {} },
  'code-line': { data: {} },
  divider: { data: {}, isVoid: true },
  hint: { data: { style: 'info' } },
  'list-item': { data: {} },
  'list-unordered': { data: {} },
  'list-ordered': { data: {} },
  'list-tasks': { data: {} },
  blockquote: { data: {} },
  tabs: { data: {} },
  'tabs-item': { data: { title: 'Tab' } },
  stepper: { data: {} },
  'stepper-step': { data: {} },
  columns: { data: {}, isVoid: false },
  column: { data: {} },
  expandable: { data: {}, isVoid: true },
  if: { data: { expression: '' } },
  conflict: { data: {} },
  images: { data: {}, isVoid: false },
  table: { isVoid: true },
};

/** The attributes every mapped node carries: its key, its `data`, and any other field (`rest`) as it was. */
function attrsOf(node: DocNode, skip: readonly string[] = []) {
  return {
    key: node.key ?? null,
    data: node.data ?? null,
    rest: omit(node, ['object', 'type', 'key', 'data', ...skip]),
  };
}
/** The node back from its attributes; a node made in the editor (no `rest`) gets GitBook's defaults. */
function fromAttrs(object: string, type: string, attrs: Record<string, any> | undefined, body: DocNode = {}): DocNode {
  const a = attrs ?? {};
  const fresh = NEW_BLOCK[type];
  const out: DocNode = { object, type };
  if (a.key) out.key = a.key;
  const data = a.data ?? (a.rest == null ? fresh?.data : undefined);
  if (data !== undefined && data !== null) out.data = data;
  if (a.rest) Object.assign(out, a.rest);
  else if (fresh?.isVoid !== undefined) out.isVoid = fresh.isVoid;
  return Object.assign(out, body);
}

// ── Document -> editor ───────────────────────────────────────────────────────────────────────────────────

/** GitBook's document as the editor's JSON: one `doc` node, its `data` kept as an attribute. */
export function documentToEditor(document: JSONDocument | DocNode): EditorNode {
  const doc = document as DocNode;
  return {
    type: 'doc',
    attrs: { data: doc.data ?? {}, rest: omit(doc, ['object', 'data', 'nodes']) },
    content: blocksToEditor(doc.nodes ?? []),
  };
}

function blocksToEditor(nodes: DocNode[], parent?: string): EditorNode[] {
  return nodes.map((n) => safeBlock(n, parent));
}

/** A block as an editor node, or, when it cannot come back exactly as it was, as an opaque node holding it. */
function safeBlock(node: DocNode, parent?: string): EditorNode {
  try {
    const out = blockToEditor(node, parent);
    if (sameJSON(blockFromEditor(out), node)) return out;
  } catch (e) {
    if (!(e instanceof Unmappable)) throw e;
  }
  return opaque(node);
}

const opaque = (node: DocNode): EditorNode => ({ type: 'opaque', attrs: { node } });

function blockToEditor(n: DocNode, parent?: string): EditorNode {
  if (n.object !== 'block') fail('not a block');
  const type: string = n.type;
  if (type === 'paragraph') return { type: 'paragraph', attrs: attrsOf(n, ['nodes']), content: inlines(n.nodes) };
  if (/^heading-[123]$/.test(type))
    return {
      type: 'heading',
      attrs: { level: Number(type.slice(-1)), ...attrsOf(n, ['nodes']) },
      content: inlines(n.nodes),
    };
  if (type === 'list-item') {
    const attrs = attrsOf(n, ['nodes']);
    const content = blocksToEditor(n.nodes ?? []);
    if (parent === 'list-tasks') return { type: 'taskItem', attrs: { checked: !!n.data?.checked, ...attrs }, content };
    return { type: 'listItem', attrs, content };
  }
  if (type === 'code') return codeToEditor(n);
  if (type === 'expandable') return expandableToEditor(n);
  if (type === 'table') return tableToEditor(n);
  const container = CONTAINERS[type];
  if (container) {
    if (!Array.isArray(n.nodes)) fail('no nodes');
    return { type: container, attrs: attrsOf(n, ['nodes']), content: blocksToEditor(n.nodes, type) };
  }
  const atom = VOID_BLOCKS[type];
  if (atom) return { type: atom, attrs: attrsOf(n) };
  return fail(`unknown block ${type}`);
}

function codeToEditor(n: DocNode): EditorNode {
  const lines: DocNode[] = n.nodes ?? [];
  if (!lines.length) fail('code without lines');
  const texts = lines.map((line) => {
    const only = line.nodes?.length === 1 ? line.nodes[0] : undefined;
    const leaf = only?.object === 'text' && !only.key && only.leaves?.length === 1 ? only.leaves[0] : undefined;
    if (!leaf || leaf.marks?.length || typeof leaf.text !== 'string' || leaf.text.includes('\n'))
      fail('code line is not plain text');
    return leaf.text as string;
  });
  const text = texts.join('\n');
  return {
    type: 'codeBlock',
    attrs: {
      language: n.data?.syntax ?? null,
      ...attrsOf(n, ['nodes']),
      lines: lines.map((line) => omit(line, ['object', 'type', 'nodes'])),
    },
    ...(text ? { content: [{ type: 'text', text }] } : {}),
  };
}

function expandableToEditor(n: DocNode): EditorNode {
  const [title, body, ...more] = n.fragments ?? [];
  if (more.length || title?.fragment !== 'expandable-title' || body?.fragment !== 'expandable-body')
    fail('expandable fragments');
  return {
    type: 'expandable',
    attrs: attrsOf(n, ['fragments']),
    content: [
      { type: 'expandableTitle', attrs: { rest: omit(title, ['nodes']) }, content: blocksToEditor(title.nodes) },
      { type: 'expandableBody', attrs: { rest: omit(body, ['nodes']) }, content: blocksToEditor(body.nodes) },
    ],
  };
}

/** The text columns of a table, in the order of its definition. */
const textColumns = (data: DocNode): string[] =>
  Object.values(data?.definition ?? {})
    .filter((d: any) => d?.type === 'text')
    .map((d: any) => d.id);

function tableToEditor(n: DocNode): EditorNode {
  const data = n.data;
  if (!data?.records || !data.definition || !Array.isArray(n.fragments)) fail('table shape');
  const fragments = new Map<string, DocNode>((n.fragments as DocNode[]).map((f) => [f.fragment, f]));
  const columns = textColumns(data);
  if (!columns.length) fail('table without text columns');
  const rows = Object.entries(data.records as Record<string, DocNode>).map(([id, record]) => ({
    type: 'tableRow',
    attrs: { record: id },
    content: columns.map((column) => {
      const name = record.values?.[column];
      const fragment = typeof name === 'string' ? fragments.get(name) : undefined;
      if (!fragment) fail('cell without fragment');
      return {
        type: 'tableCell',
        attrs: { column, fragment: omit(fragment as DocNode, ['nodes']) },
        content: blocksToEditor(fragment!.nodes ?? []),
      };
    }),
  }));
  if (!rows.length) fail('table without rows');
  return { type: 'table', attrs: attrsOf(n, ['fragments']), content: rows };
}

/** Texts and inlines as editor inline content: leaves become marked text, links and annotations marks. */
function inlines(nodes: DocNode[] | undefined, outer: EditorMark[] = []): EditorNode[] {
  if (!Array.isArray(nodes)) return fail('no nodes');
  const out: EditorNode[] = [];
  for (const n of nodes) {
    if (n.object === 'text') {
      if (n.key || !Array.isArray(n.leaves)) fail('text with key');
      for (const leaf of n.leaves) {
        const marks = [...outer, ...(leaf.marks ?? []).map(markToEditor)];
        const parts = String(leaf.text).split('\n');
        parts.forEach((part, i) => {
          if (i > 0) out.push(withMarks({ type: 'hardBreak' }, marks));
          if (part) out.push(withMarks({ type: 'text', text: part }, marks));
        });
      }
    } else if (n.object === 'inline' && (n.type === 'link' || n.type === 'annotation')) {
      const mark = { type: n.type, attrs: attrsOf(n, ['nodes']) };
      const inner = inlines(n.nodes, [...outer, mark]);
      // with no text to carry the mark (a footnote marker), the inline is kept whole in an inline atom
      if (inner.length) out.push(...inner);
      else out.push(withMarks({ type: 'opaqueInline', attrs: { node: n } }, outer));
    } else if (n.object === 'inline' && VOID_INLINES[n.type]) {
      out.push(withMarks({ type: VOID_INLINES[n.type]!, attrs: attrsOf(n) }, outer));
    } else if (n.object === 'inline') out.push(withMarks({ type: 'opaqueInline', attrs: { node: n } }, outer));
    else fail(`unknown node ${n.object}`);
  }
  return out;
}

const withMarks = (node: EditorNode, marks: EditorMark[]): EditorNode => (marks.length ? { ...node, marks } : node);

function markToEditor(m: DocNode): EditorMark {
  const type = MARKS[m.type];
  if (!type || m.object !== 'mark') return fail(`unknown mark ${m.type}`);
  const rest = omit(m, ['object', 'type']);
  return rest ? { type, attrs: { rest } } : { type };
}

// ── Editor -> document ───────────────────────────────────────────────────────────────────────────────────

/** The editor's JSON as GitBook's document. Keys seen twice (a split paragraph copies its key) are dropped. */
export function editorToDocument(json: EditorNode): JSONDocument {
  const seen = new Set<string>();
  const doc: DocNode = {
    object: 'document',
    data: json.attrs?.data ?? {},
    ...(json.attrs?.rest ?? {}),
    nodes: (json.content ?? []).map((n) => blockFromEditor(n, seen)),
  };
  return doc as JSONDocument;
}

function uniqueKeys(node: DocNode, seen: Set<string>): DocNode {
  if (typeof node.key === 'string') {
    if (seen.has(node.key)) delete node.key;
    else seen.add(node.key);
  }
  return node;
}

function blockFromEditor(e: EditorNode, seen = new Set<string>()): DocNode {
  const kids = () => (e.content ?? []).map((c) => blockFromEditor(c, seen));
  const a = e.attrs;
  let out: DocNode;
  switch (e.type) {
    case 'opaque':
      return uniqueKeys(structuredClone(a?.node ?? {}), seen);
    case 'paragraph':
      out = fromAttrs('block', 'paragraph', a, { nodes: inlinesFromEditor(e.content ?? []) });
      break;
    case 'heading':
      out = fromAttrs('block', `heading-${a?.level ?? 1}`, a, { nodes: inlinesFromEditor(e.content ?? []) });
      if (out.data === undefined) out.data = {};
      break;
    case 'listItem':
      out = fromAttrs('block', 'list-item', a, { nodes: kids() });
      break;
    case 'taskItem': {
      out = fromAttrs('block', 'list-item', a, { nodes: kids() });
      const checked = !!a?.checked;
      // a task made in the editor says whether it is done; one read from a document stays as it was
      if (!!out.data?.checked !== checked || (!a?.rest && out.data?.checked === undefined))
        out.data = { ...(out.data ?? {}), checked };
      break;
    }
    case 'codeBlock':
      out = codeFromEditor(e);
      break;
    case 'expandable': {
      const [title, body] = e.content ?? [];
      const fragment = (f: EditorNode | undefined, name: string) => ({
        ...(f?.attrs?.rest ?? { object: 'fragment', fragment: name, type: name }),
        nodes: (f?.content ?? []).map((c) => blockFromEditor(c, seen)),
      });
      out = fromAttrs('block', 'expandable', a, {
        fragments: [fragment(title, 'expandable-title'), fragment(body, 'expandable-body')],
      });
      break;
    }
    case 'table':
      out = tableFromEditor(e, seen);
      break;
    default: {
      const container = FROM_CONTAINER[e.type];
      const atom = FROM_VOID[e.type];
      if (container) out = fromAttrs('block', container, a, { nodes: kids() });
      else if (atom) out = fromAttrs('block', atom, a);
      else throw new Error(`The editor has no GitBook block for "${e.type}"`);
    }
  }
  return uniqueKeys(out, seen);
}

function codeFromEditor(e: EditorNode): DocNode {
  const a = e.attrs ?? {};
  const out = fromAttrs('block', 'code', a);
  if (out.data === undefined) out.data = {};
  const language = a.language || undefined;
  if ((out.data.syntax ?? undefined) !== language) {
    out.data = { ...out.data };
    if (language) out.data.syntax = language;
    else delete out.data.syntax;
  }
  const text = (e.content ?? []).map((c) => c.text ?? (c.type === 'hardBreak' ? '\n' : '')).join('');
  const lines: (Record<string, any> | null)[] = a.lines ?? [];
  out.nodes = text.split('\n').map((line, i) => ({
    object: 'block',
    type: 'code-line',
    ...(lines[i] ?? { data: {} }),
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
  }));
  return out;
}

function tableFromEditor(e: EditorNode, seen: Set<string>): DocNode {
  const a = e.attrs ?? {};
  const data: DocNode = structuredClone(a.data ?? {});
  // a table pasted from HTML has no GitBook data: its cells get text columns in order
  const columns = textColumns(data);
  data.definition ??= {};
  const columnAt = (i: number): string => {
    while (columns.length <= i) {
      let id = `c${columns.length + 1}`;
      while (data.definition[id]) id += 'x';
      data.definition[id] = { id, title: '', type: 'text', textAlignment: 'left' };
      columns.push(id);
      if (data.view?.columns) data.view.columns.push(id);
    }
    return columns[i]!;
  };
  const old: Record<string, DocNode> = data.records ?? {};
  const records: Record<string, DocNode> = {};
  const fragments: DocNode[] = [];
  const names = new Set<string>();
  let last = '';
  (e.content ?? []).forEach((row, r) => {
    let id: string = row.attrs?.record ?? `r${r}`;
    for (let i = 1; records[id]; i++) id = `${row.attrs?.record ?? 'r'}-${i}`;
    const record: DocNode = structuredClone(old[id] ?? old[row.attrs?.record] ?? { values: {} });
    if (!old[id] || !record.orderIndex || record.orderIndex <= last)
      record.orderIndex = Object.keys(old).length ? `${last || 'a'}V` : `a${String(r).padStart(4, '0')}`;
    last = record.orderIndex;
    record.values = { ...(record.values ?? {}) };
    for (const [index, cell] of (row.content ?? []).entries()) {
      const column: string = cell.attrs?.column ?? columnAt(index);
      let name: string = cell.attrs?.fragment?.fragment ?? `${id}-${column}`;
      for (let i = 1; names.has(name); i++) name = `${id}-${column}-${i}`;
      names.add(name);
      record.values[column] = name;
      fragments.push({
        ...(cell.attrs?.fragment ?? { object: 'fragment' }),
        fragment: name,
        nodes: (cell.content ?? []).map((c) => blockFromEditor(c, seen)),
      });
    }
    records[id] = record;
  });
  data.records = records;
  data.view ??= { type: 'grid', columns, hideHeader: true };
  return fromAttrs('block', 'table', { ...a, data }, { fragments });
}

interface Run {
  kind: 'text' | 'inline';
  text?: string;
  marks?: DocNode[];
  inline?: DocNode;
}

/** Editor inline content as GitBook's texts and inlines: a text before, between and after every inline. */
function inlinesFromEditor(content: EditorNode[]): DocNode[] {
  const runs: Run[] = [];
  let i = 0;
  while (i < content.length) {
    const node = content[i]!;
    const box = (node.marks ?? []).find((m) => m.type === 'link' || m.type === 'annotation');
    if (box) {
      // every following node with the same link (or annotation) belongs to it
      const group: EditorNode[] = [];
      while (i < content.length) {
        const m = (content[i]!.marks ?? []).find((x) => x.type === box.type);
        if (!m || !sameJSON(m.attrs, box.attrs)) break;
        group.push({ ...content[i]!, marks: content[i]!.marks!.filter((x) => x !== m) });
        i++;
      }
      runs.push({
        kind: 'inline',
        inline: fromAttrs('inline', box.type, box.attrs, { nodes: inlinesFromEditor(group) }),
      });
      continue;
    }
    if (node.type === 'text' || node.type === 'hardBreak') {
      const marks = (node.marks ?? [])
        .filter((m) => FROM_MARK[m.type])
        .sort((x, y) => MARK_ORDER.indexOf(FROM_MARK[x.type]!) - MARK_ORDER.indexOf(FROM_MARK[y.type]!))
        .map((m) => ({ object: 'mark', type: FROM_MARK[m.type], ...(m.attrs?.rest ?? {}) }));
      runs.push({ kind: 'text', text: node.type === 'text' ? (node.text ?? '') : '\n', marks });
    } else if (node.type === 'opaqueInline') {
      runs.push({ kind: 'inline', inline: structuredClone(node.attrs?.node ?? {}) });
    } else if (FROM_INLINE[node.type]) {
      runs.push({ kind: 'inline', inline: fromAttrs('inline', FROM_INLINE[node.type]!, node.attrs) });
    } else throw new Error(`The editor has no GitBook inline for "${node.type}"`);
    i++;
  }
  const out: DocNode[] = [];
  let leaves: DocNode[] = [];
  const flush = () => {
    out.push({ object: 'text', leaves: leaves.length ? leaves : [{ object: 'leaf', text: '', marks: [] }] });
    leaves = [];
  };
  for (const run of runs) {
    if (run.kind === 'inline') {
      flush();
      out.push(run.inline!);
      continue;
    }
    const prev = leaves[leaves.length - 1];
    if (prev && sameJSON(prev.marks, run.marks)) prev.text += run.text;
    else leaves.push({ object: 'leaf', text: run.text, marks: run.marks });
  }
  flush();
  return out;
}

// an inline made in the editor gets `isVoid: true` (void inlines) or nothing (link)
for (const t of Object.keys(VOID_INLINES)) NEW_BLOCK[t] = { isVoid: true };
NEW_BLOCK.link = { data: {} };
NEW_BLOCK.annotation = { data: {}, isVoid: false };
for (const t of Object.keys(VOID_BLOCKS)) NEW_BLOCK[t] = { data: {}, ...NEW_BLOCK[t], isVoid: true };

/** How many blocks of the editor's JSON are kept opaque (not editable), for tests and the editor's notice. */
export function opaqueCount(json: EditorNode): number {
  return (json.type === 'opaque' ? 1 : 0) + (json.content ?? []).reduce((s, c) => s + opaqueCount(c), 0);
}
