// The settings of the block around the cursor (code language, hint style, tab title, formula…): which fields a
// block has, finding that block, and writing a field back into its GitBook `data`.
import type { Editor } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import { NodeSelection, type Transaction } from '@tiptap/pm/state';

export interface Field {
  label: string;
  /** `data.{name}`, or the node attribute when `attr` */
  name: string;
  attr?: boolean;
  kind: 'text' | 'checkbox' | 'select';
  options?: readonly string[];
  /** for a checkbox: the value stored when checked (true when absent) */
  on?: string;
  /** a field deeper in `data` (a table column's title): its path; `name` then only names the input */
  path?: string[];
  /** a fragment of the block (an image's `caption`), edited as one paragraph of plain text */
  fragment?: string;
  /** shown but not editable here (a caption with formatting, which plain text would lose) */
  readOnly?: boolean;
  /** a checkbox stored the other way round (checked "Header row" is `hideHeader: false`) */
  invert?: boolean;
  /** a length (an image's width): whole pixels (`300`, `300px`, stored as a number) or a percentage (`50%`, GitBook's
   * `{unit: '%', value}`); emptied it is removed */
  pixels?: boolean;
}

export const SETTINGS: Record<string, { title: string; fields: Field[] }> = {
  codeBlock: {
    title: 'Code block',
    fields: [
      { label: 'Language', name: 'language', attr: true, kind: 'text' },
      { label: 'Title', name: 'title', kind: 'text' },
      { label: 'Line numbers', name: 'lineNumbers', kind: 'checkbox' },
      { label: 'Wrap long lines', name: 'overflow', kind: 'checkbox', on: 'wrap' },
    ],
  },
  hint: {
    title: 'Hint',
    fields: [{ label: 'Style', name: 'style', kind: 'select', options: ['info', 'warning', 'danger', 'success'] }],
  },
  tabsItem: { title: 'Tab', fields: [{ label: 'Tab title', name: 'title', kind: 'text' }] },
  mathBlock: { title: 'Math', fields: [{ label: 'Formula (TeX)', name: 'formula', kind: 'text' }] },
  embed: { title: 'Embed', fields: [{ label: 'URL', name: 'url', kind: 'text' }] },
  conditional: { title: 'Conditional block', fields: [{ label: 'Condition', name: 'expression', kind: 'text' }] },
  expandable: {
    title: 'Expandable',
    fields: [{ label: 'Open by default', name: 'defaultExpanded', kind: 'checkbox' }],
  },
  update: { title: 'Update', fields: [{ label: 'Date', name: 'date', kind: 'text' }] },
  table: { title: 'Table', fields: [] },
  image: {
    title: 'Image',
    fields: [
      { label: 'Alt text', name: 'alt', kind: 'text' },
      { label: 'Caption', name: 'caption', kind: 'text', fragment: 'caption' },
      { label: 'Width (px or %)', name: 'width', kind: 'text', pixels: true },
    ],
  },
  // its target is changed with the page picker (PageEditor's "Change page…")
  contentRef: { title: 'Page reference', fields: [] },
  // their targets are picked from the organization's specifications and the space's contents (RefBlockSettings.tsx)
  // its target is changed with the link dialog (ButtonSettings.tsx)
  button: {
    title: 'Button',
    fields: [
      { label: 'Label', name: 'label', kind: 'text' },
      { label: 'Style', name: 'kind', kind: 'select', options: ['primary', 'secondary'] },
    ],
  },
  openapiOperation: { title: 'OpenAPI operation', fields: [] },
  reusableContent: { title: 'Reusable content', fields: [] },
  // the blocks below have more settings in MoreBlockSettings.tsx (a file replaced, a specification's schemas…)
  drawing: { title: 'Drawing', fields: [] },
  integration: {
    title: 'Integration block',
    fields: [{ label: 'Full width', name: 'fullWidth', kind: 'checkbox' }],
  },
  openapiSchemas: {
    title: 'OpenAPI schemas',
    fields: [{ label: 'Title', name: 'title', kind: 'text' }],
  },
  openapiWebhook: { title: 'OpenAPI webhook', fields: [] },
  // an `icon` inline: its name (MoreBlockSettings.tsx, checked) and its colour
  icon: {
    title: 'Icon',
    fields: [
      {
        label: 'Colour',
        name: 'color',
        kind: 'select',
        // GitBook's DocumentTextColor: the palette, then the site's semantic colours
        options: [
          ...['', 'default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan'],
          ...['$primary', '$info', '$success', '$warning', '$danger', '$tint'],
        ],
      },
    ],
  },
  swagger: {
    title: 'OpenAPI block (older)',
    fields: [
      { label: 'Path', name: 'path', kind: 'text' },
      { label: 'Method', name: 'method', kind: 'text' },
      { label: 'Open by default', name: 'expanded', kind: 'checkbox' },
      { label: 'Full width', name: 'fullWidth', kind: 'checkbox' },
    ],
  },
};

interface DocFragment {
  object?: string;
  fragment?: string;
  nodes?: {
    object?: string;
    type?: string;
    nodes?: { object?: string; leaves?: { text?: string; marks?: unknown[] }[] }[];
  }[];
}
const fragmentOf = (attrs: Record<string, any>, name: string): DocFragment | undefined =>
  (attrs.rest?.fragments as DocFragment[] | undefined)?.find((f) => f.fragment === name);

/** The text of a block's fragment (its paragraphs' text, one per line). */
const fragmentText = (f: DocFragment | undefined): string =>
  (f?.nodes ?? [])
    .map((p) => (p.nodes ?? []).map((n) => (n.leaves ?? []).map((l) => l.text ?? '').join('')).join(''))
    .join('\n');

/** Whether a fragment is plain text: at most one paragraph of unmarked text (no link, no inline). */
const isPlain = (f: DocFragment | undefined): boolean =>
  !f?.nodes ||
  (f.nodes.length <= 1 &&
    f.nodes.every(
      (p) =>
        p.type === 'paragraph' &&
        (p.nodes ?? []).every((n) => n.object === 'text' && (n.leaves ?? []).every((l) => !l.marks?.length)),
    ));

/** An image's caption as text (what the label under the picture shows). */
export const captionOf = (attrs: Record<string, any>): string => fragmentText(fragmentOf(attrs, 'caption'));

/**
 * The fields of a block. A table (its grid view) has its header row, shown or hidden (GitBook's `view.hideHeader`),
 * and one field per text column: its title, shown in that header.
 */
export function fieldsOf(target: Target): Field[] {
  if (target.type === 'image')
    return SETTINGS.image!.fields.map((f) =>
      f.fragment && !isPlain(fragmentOf(target.attrs, f.fragment))
        ? { ...f, label: `${f.label} (formatted: kept as it is)`, readOnly: true }
        : f,
    );
  if (target.type !== 'table') return SETTINGS[target.type]?.fields ?? [];
  const definition = target.attrs.data?.definition ?? {};
  const header: Field[] =
    target.attrs.data?.view?.type === 'grid'
      ? [{ label: 'Header row', name: 'header', kind: 'checkbox', path: ['view', 'hideHeader'], invert: true }]
      : [];
  return [
    ...header,
    ...Object.values(definition as Record<string, any>)
      .filter((d) => d?.type === 'text')
      .map((d, i) => ({
        label: `Column ${i + 1} title`,
        name: `column-${d.id}`,
        kind: 'text' as const,
        path: ['definition', d.id, 'title'],
      })),
  ];
}

/** Fields GitBook requires: emptied, they stay as an empty string. */
const REQUIRED = new Set(['expression', 'formula', 'url', 'date', 'style', 'label', 'kind', 'path', 'method']);

export interface Target {
  pos: number;
  type: string;
  attrs: Record<string, any>;
}

/** The innermost block with settings at the selection (a selected atom, or a block holding the cursor). */
export function targetOf(editor: Editor): Target | undefined {
  const sel = editor.state.selection;
  if (sel instanceof NodeSelection && SETTINGS[sel.node.type.name])
    return { pos: sel.from, type: sel.node.type.name, attrs: sel.node.attrs };
  const $from = sel.$from;
  for (let d = $from.depth; d > 0; d--) {
    const node = $from.node(d);
    if (SETTINGS[node.type.name]) return { pos: $from.before(d), type: node.type.name, attrs: node.attrs };
  }
  return undefined;
}

/** The value of a field of a block. */
export function valueOf(target: Target, field: Field): string | boolean {
  if (field.fragment) return fragmentText(fragmentOf(target.attrs, field.fragment));
  const v = field.path
    ? field.path.reduce((o: any, k) => o?.[k], target.attrs.data)
    : field.attr
      ? target.attrs[field.name]
      : target.attrs.data?.[field.name];
  if (field.kind === 'checkbox') return (field.on ? v === field.on : v === true) !== (field.invert ?? false);
  // a width with a unit (GitBook's `{unit, value}`) reads as its value and unit
  if (v && typeof v === 'object') return `${v.value ?? ''}${v.unit === 'px' ? '' : (v.unit ?? '')}`;
  return v == null ? '' : String(v);
}

/** GitBook's `Length` of an image's width as typed: `300` or `300px` (whole pixels, a number), `50%` (1 to 100, `{unit:
 * '%', value}`); undefined for anything else (a letter, 0, a negative, a unit the site does not draw). */
export function lengthOf(typed: string): number | { unit: string; value: number } | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$/i.exec(typed);
  if (!m) return undefined;
  const value = Math.round(Number(m[1]));
  if (m[2] === '%') return value > 0 && value <= 100 ? { unit: '%', value } : undefined;
  return value > 0 ? value : undefined;
}

/** Writes a field of the block at `pos` (one undoable step); an empty text or unchecked box removes it. */
export function setField(editor: Editor, pos: number, field: Field, value: string | boolean): boolean {
  const node = editor.state.doc.nodeAt(pos);
  if (!node) return false;
  const pixels = field.pixels && value !== '' ? lengthOf(String(value)) : undefined;
  // not a width (a letter, 0, a negative, another unit): nothing is written
  if (field.pixels && value !== '' && pixels === undefined) return false;
  const stored =
    field.kind === 'checkbox' ? (value ? (field.on ?? true) : undefined) : value === '' ? undefined : (pixels ?? value);
  const attrs = { ...node.attrs };
  if (field.fragment) {
    if (field.readOnly) return false;
    attrs.rest = withFragment(node.attrs.rest, field.fragment, String(value));
  } else if (field.attr) attrs[field.name] = stored ?? null;
  else if (field.path) {
    const data = structuredClone(node.attrs.data ?? {});
    let o = data;
    for (const k of field.path.slice(0, -1)) o = o[k] ??= {};
    o[field.path[field.path.length - 1]!] =
      typeof value === 'boolean' ? value !== (field.invert ?? false) : String(value);
    attrs.data = data;
  } else {
    const data = { ...(node.attrs.data ?? {}) };
    if (stored === undefined && !REQUIRED.has(field.name)) delete data[field.name];
    else data[field.name] = stored ?? '';
    attrs.data = data;
  }
  // its own undo step, not merged with the typing before it
  editor.view.dispatch(closeHistory(keepSelected(editor, pos, editor.state.tr.setNodeMarkup(pos, undefined, attrs))));
  return true;
}

/**
 * The block at `pos` selected again after its attributes changed, when it was selected: an inline atom (a button)
 * replaced by `setNodeMarkup` loses its selection, and its settings would close under the writer's typing.
 */
export function keepSelected(editor: Editor, pos: number, tr: Transaction): Transaction {
  const sel = editor.state.selection;
  return sel instanceof NodeSelection && sel.from === pos ? tr.setSelection(NodeSelection.create(tr.doc, pos)) : tr;
}

/**
 * `rest` with the fragment `name` holding `text` as one paragraph (its other fields, such as its key, kept), or
 * without that fragment when `text` is empty. The other fragments stay where they were.
 */
function withFragment(rest: Record<string, any> | null, name: string, text: string): Record<string, any> {
  const fragments = [...((rest?.fragments as DocFragment[] | undefined) ?? [])];
  const at = fragments.findIndex((f) => f.fragment === name);
  const paragraph = {
    object: 'block',
    type: 'paragraph',
    data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
  };
  const made = { ...(at >= 0 ? fragments[at] : { object: 'fragment', fragment: name }), nodes: [paragraph] };
  if (text === '') {
    if (at >= 0) fragments.splice(at, 1);
  } else if (at >= 0) fragments[at] = made;
  else fragments.push(made);
  return { ...(rest ?? {}), fragments };
}
