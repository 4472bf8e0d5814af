// The editor's schema: one TipTap node or mark per block, inline and mark of GitBook's document (see @quire/document/editor
// for the mapping). Every node keeps its GitBook `key`, `data` and other fields as attributes; `data` and the
// other fields travel through the clipboard's HTML (data-gb-* attributes), the key does not (a copy is a new
// block). Which block may sit in which follows GitBook's containment (`DocumentBlockTopLevel`, the children of
// each container), through the node groups below.
import {
  type AnyExtension,
  type Attributes,
  Extension,
  Mark,
  mergeAttributes,
  Node,
  wrappingInputRule,
} from '@tiptap/core';
import { VOID_BLOCKS, VOID_INLINES } from '@quire/document/editor';
import Blockquote from '@tiptap/extension-blockquote';
import Bold from '@tiptap/extension-bold';
import Code from '@tiptap/extension-code';
import CodeBlock from '@tiptap/extension-code-block';
import Document from '@tiptap/extension-document';
import HardBreak from '@tiptap/extension-hard-break';
import Heading from '@tiptap/extension-heading';
import HorizontalRule from '@tiptap/extension-horizontal-rule';
import Italic from '@tiptap/extension-italic';
import { BulletList, ListItem, ListKeymap, OrderedList, TaskItem, TaskList } from '@tiptap/extension-list';
import Paragraph from '@tiptap/extension-paragraph';
import Strike from '@tiptap/extension-strike';
import { Table, TableCell, TableRow } from '@tiptap/extension-table';
import Text from '@tiptap/extension-text';
import { Dropcursor, Gapcursor, UndoRedo } from '@tiptap/extensions';
import { GapCursor } from '@tiptap/pm/gapcursor';
import type { ResolvedPos } from '@tiptap/pm/model';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { buttonClasses, buttonView } from './button-view.ts';
import { captionOf } from './settings.ts';
import { GitBookTableView, TableKeys } from './table.ts';
import { fileNames, fileUrls, pageTitles, reusableTitles } from './uploads.ts';

// ── Containment (GitBook's unions, packages/contracts/src/schemas/document.ts) ──────────────────────────────
const ESSENTIAL = ['paragraph', 'html', 'heading', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];
const TAB_CHILD = [
  ...ESSENTIAL,
  ...['prompt', 'content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'blockquote', 'math'],
  'integration',
];
/** Group name -> the GitBook block types it admits. */
const GROUPS: Record<string, string[]> = {
  tl: [
    ...ESSENTIAL,
    ...['blockquote', 'hint', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table'],
    ...['swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration'],
    ...['reusable-content', 'stepper', 'if', 'columns', 'prompt', 'updates', 'conflict'],
  ],
  li: [...ESSENTIAL, 'code', 'hint', 'blockquote', 'math', 'table'],
  qc: [...ESSENTIAL, 'blockquote'],
  hc: [...ESSENTIAL, 'embed', 'integration', 'table'],
  tc: TAB_CHILD,
  sc: [...TAB_CHILD, 'expandable', 'tabs'],
  cc: [
    ...ESSENTIAL,
    ...['prompt', 'images', 'code', 'hint', 'content-ref', 'drawing', 'embed', 'file', 'integration', 'math'],
    ...['blockquote', 'table', 'expandable', 'stepper'],
  ],
  ec: [...ESSENTIAL, 'file', 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content', 'integration'],
};
/** The groups of a GitBook block type (`opaque` belongs to all: it holds whatever was there). */
export const groupsOf = (type: string): string =>
  Object.entries(GROUPS)
    .filter(([, types]) => type === 'opaque' || types.includes(type))
    .map(([g]) => g)
    .join(' ');

// ── Attributes ───────────────────────────────────────────────────────────────────────────────────────────
const json = (name: string): Attributes[string] => ({
  default: null,
  parseHTML: (el) => {
    const v = el.getAttribute(`data-gb-${name}`);
    if (!v) return null;
    try {
      return JSON.parse(v);
    } catch {
      return null;
    }
  },
  renderHTML: (attrs) => (attrs[name] == null ? {} : { [`data-gb-${name}`]: JSON.stringify(attrs[name]) }),
});
/** `key` (not copied), `data` and `rest` (the other GitBook fields, as they were). */
const gbAttributes = (): Attributes => ({
  key: { default: null, rendered: false, keepOnSplit: false },
  data: json('data'),
  rest: json('rest'),
});

const withGb = <T extends { extend: (c: any) => any }>(ext: T, group: string, extra: Record<string, unknown> = {}) =>
  ext.extend({
    group: groupsOf(group),
    addAttributes(this: any) {
      return { ...this.parent?.(), ...gbAttributes() };
    },
    ...extra,
  });

// ── Containers and atoms of GitBook's own ────────────────────────────────────────────────────────────────
/** A block holding blocks, drawn as `<div class="gb-{name}">` with an optional visible label. */
function container(name: string, gbType: string, content: string, label?: (attrs: any) => string) {
  return Node.create({
    name,
    group: groupsOf(gbType),
    content,
    defining: true,
    addAttributes: gbAttributes,
    parseHTML: () => [{ tag: `div[data-gb-type="${gbType}"]` }],
    renderHTML({ node, HTMLAttributes }) {
      const attrs = mergeAttributes(HTMLAttributes, {
        'data-gb-type': gbType,
        class: `gb-block gb-${gbType}${node.attrs.data?.style ? ` gb-hint-${node.attrs.data.style}` : ''}`,
      });
      const text = label?.(node.attrs);
      return text
        ? [
            'div',
            attrs,
            ['div', { class: 'gb-label', contenteditable: 'false' }, text],
            ['div', { class: 'gb-body' }, 0],
          ]
        : ['div', attrs, 0];
    },
  });
}

/** What a void block shows: its kind and its main value (URL, formula, file…). */
export function describeAtom(type: string, attrs: any): string {
  const d = attrs?.data ?? {};
  const ref = d.ref ?? {};
  const target = ref.url ?? ref.page ?? ref.file ?? ref.space ?? ref.spec ?? ref.reusableContent ?? '';
  switch (type) {
    case 'math':
      return `Math: ${d.formula ?? ''}`;
    case 'embed':
      return `Embed: ${d.url ?? ''}`;
    case 'content-ref':
      return `Page link: ${(ref.kind === 'page' && pageTitles.get(ref.page)) || target}`;
    case 'file':
      return `File: ${(ref.kind === 'file' && fileNames.get(ref.file)) || target}${d.caption ? ` (${d.caption})` : ''}`;
    case 'image': {
      const caption = captionOf(attrs ?? {});
      return `Image: ${d.alt || target}${caption ? ` · ${caption}` : ''}`;
    }
    case 'html':
      return `HTML: ${String(d.html ?? '').slice(0, 120)}`;
    case 'swagger':
    case 'openapi-operation':
      return `OpenAPI: ${(d.method ?? '').toUpperCase()} ${d.path ?? ''}`;
    case 'openapi-schemas':
      return `OpenAPI schemas: ${(d.schemas ?? []).join(', ')}`;
    case 'openapi-webhook':
      return `OpenAPI webhook: ${d.name ?? ''}`;
    case 'integration':
      return `Integration: ${d.integration ?? ''}`;
    case 'reusable-content':
      return `Reusable content: ${(ref.kind === 'reusable-content' && reusableTitles.get(ref.reusableContent)) || target}`;
    case 'drawing':
      return `Drawing: ${(ref.kind === 'file' && fileNames.get(ref.file)) || target}`;
    case 'prompt':
      return `Prompt: ${d.description ?? ''}`;
    default:
      return type;
  }
}

/** An image's width as drawn: GitBook's pixels (a number, or `{unit: 'px', value}`) or a percentage (`{unit: '%'}`,
 * the `width` attribute takes one: the CSP refuses `style` attributes); other units are not drawn. */
const widthOf = (w: unknown): { width?: string } => {
  const o = w as { unit?: string; value?: number } | null;
  const px = typeof w === 'number' ? w : o?.unit === 'px' ? o.value : undefined;
  if (typeof px === 'number' && px > 0) return { width: String(px) };
  return o?.unit === '%' && typeof o.value === 'number' && o.value > 0 ? { width: `${o.value}%` } : {};
};

function atom(name: string, gbType: string) {
  return Node.create({
    name,
    group: gbType === 'image' ? 'imageItem' : groupsOf(gbType),
    atom: true,
    selectable: true,
    draggable: true,
    addAttributes: gbAttributes,
    parseHTML: () => [{ tag: `div[data-gb-type="${gbType}"]` }],
    renderHTML({ node, HTMLAttributes }) {
      const attrs = mergeAttributes(HTMLAttributes, { 'data-gb-type': gbType, class: `gb-atom gb-${gbType}` });
      const ref = node.attrs.data?.ref;
      // an image or a drawing of a file whose download URL is known shows the picture, its label below
      const src =
        (gbType === 'image' || gbType === 'drawing') && ref?.kind === 'file' ? fileUrls.get(ref.file) : undefined;
      const img = ['img', { src, alt: node.attrs.data?.alt ?? '', ...widthOf(node.attrs.data?.width) }] as const;
      // an image's dark-mode file (`refDark`), shown in dark mode as the published site does
      const dark = gbType === 'image' ? node.attrs.data?.refDark : undefined;
      const darkSrc = dark?.kind === 'file' && !dark.space ? fileUrls.get(dark.file) : undefined;
      return src
        ? [
            'div',
            attrs,
            darkSrc
              ? ['picture', {}, ['source', { srcset: darkSrc, media: '(prefers-color-scheme: dark)' }], img]
              : img,
            ['span', { class: 'gb-label' }, describeAtom(gbType, node.attrs)],
          ]
        : ['div', attrs, describeAtom(gbType, node.attrs)];
    },
  });
}

function inlineAtom(name: string, gbType: string) {
  return Node.create({
    name,
    group: 'inline',
    inline: true,
    atom: true,
    selectable: true,
    addAttributes: gbAttributes,
    parseHTML: () => [{ tag: `span[data-gb-type="${gbType}"]` }],
    // a button is drawn as the published site draws it (its kind, size and icon)
    ...(gbType === 'button' ? { addNodeView: () => buttonView } : {}),
    renderHTML({ node, HTMLAttributes }) {
      const d = node.attrs.data ?? {};
      const text =
        gbType === 'emoji'
          ? String.fromCodePoint(
              ...String(d.code ?? '')
                .split('-')
                .map((h: string) => Number.parseInt(h, 16) || 0x3f),
            )
          : gbType === 'inline-math'
            ? d.formula
            : gbType === 'expression'
              ? `{{ ${d.expression} }}`
              : gbType === 'button'
                ? d.label
                : gbType === 'icon'
                  ? `:${d.icon}:`
                  : gbType === 'inline-image'
                    ? `[${d.alt || 'image'}]`
                    : gbType;
      return [
        'span',
        mergeAttributes(HTMLAttributes, {
          'data-gb-type': gbType,
          class: `gb-inline gb-${gbType}${gbType === 'button' ? ` ${buttonClasses(d)}` : ''}`,
        }),
        text ?? '',
      ];
    },
  });
}

/** A block kept exactly as it was (the editor has no form for it): shown as a labelled, movable box. */
const Opaque = Node.create({
  name: 'opaque',
  group: groupsOf('opaque'),
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes: () => ({ node: json('node') }),
  parseHTML: () => [{ tag: 'div[data-gb-node]' }],
  renderHTML: ({ HTMLAttributes, node }) => [
    'div',
    mergeAttributes(HTMLAttributes, { class: 'gb-atom gb-opaque' }),
    `${node.attrs.node?.type ?? 'Block'} (kept as it is; not editable here)`,
  ],
});

/** An inline kept exactly as it was (an annotation without text, an inline from a newer GitBook). */
const OpaqueInline = Node.create({
  name: 'opaqueInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({ node: json('node') }),
  parseHTML: () => [{ tag: 'span[data-gb-node]' }],
  renderHTML: ({ HTMLAttributes, node }) => [
    'span',
    mergeAttributes(HTMLAttributes, { class: 'gb-inline gb-opaque' }),
    node.attrs.node?.type === 'annotation' ? '[note]' : `[${node.attrs.node?.type ?? 'inline'}]`,
  ],
});

const simpleMark = (name: string, tag: string) =>
  Mark.create({
    name,
    addAttributes: () => ({ rest: json('rest') }),
    parseHTML: () => [{ tag }],
    renderHTML: ({ HTMLAttributes }) => [tag, HTMLAttributes, 0],
  });

const TextColor = Mark.create({
  name: 'textColor',
  addAttributes: () => ({ rest: json('rest') }),
  parseHTML: () => [{ tag: 'mark[data-gb-rest]' }],
  renderHTML: ({ HTMLAttributes, mark }) => [
    'mark',
    mergeAttributes(HTMLAttributes, { class: `gb-color-${mark.attrs.rest?.data?.text ?? 'default'}` }),
    0,
  ],
});

/** A GitBook link (an inline holding text): a mark, `data.ref` its target. Pasted `<a href>` are URL links. */
const Link = Mark.create({
  name: 'link',
  inclusive: false,
  priority: 1000,
  addAttributes: () => ({
    ...gbAttributes(),
    data: {
      default: null,
      parseHTML: (el) => {
        const own = el.getAttribute('data-gb-data');
        if (own) return JSON.parse(own);
        const href = el.getAttribute('href');
        return href ? { ref: { kind: 'url', url: href } } : null;
      },
      renderHTML: (attrs) => (attrs.data ? { 'data-gb-data': JSON.stringify(attrs.data) } : {}),
    },
  }),
  parseHTML: () => [{ tag: 'a[href]' }],
  renderHTML({ mark, HTMLAttributes }) {
    const ref = mark.attrs.data?.ref ?? {};
    const href = ref.kind === 'url' && /^(https?:|mailto:)/i.test(ref.url ?? '') ? ref.url : undefined;
    return ['a', mergeAttributes(HTMLAttributes, href ? { href, rel: 'noopener noreferrer nofollow' } : {}), 0];
  },
});

const Annotation = Mark.create({
  name: 'annotation',
  inclusive: false,
  addAttributes: gbAttributes,
  parseHTML: () => [{ tag: 'span[data-gb-annotation]' }],
  renderHTML: ({ HTMLAttributes }) => [
    'span',
    mergeAttributes(HTMLAttributes, { 'data-gb-annotation': '', class: 'gb-annotation' }),
    0,
  ],
});

/** The hint's input rule: a line starting with `!!! ` becomes an info hint, `!!!warning ` a warning one… */
const Hint = container('hint', 'hint', 'hc*', (a) => `Hint · ${a.data?.style ?? 'info'}`).extend({
  addInputRules() {
    return [
      wrappingInputRule({
        find: /^!!!(info|warning|danger|success)?\s$/,
        type: this.type,
        getAttributes: (match) => ({ data: { style: match[1] ?? 'info' } }),
        // a hint typed just below another one is a hint of its own (of its own style), not more of that one
        joinPredicate: () => false,
      }),
    ];
  },
});

/** Containers whose own keys handle Enter on an empty paragraph (a list item lifts it; a table cell keeps it). */
const OWN_ENTER = new Set(['listItem', 'taskItem', 'tableCell', 'tableHeader']);

/**
 * Enter where the keyboard would otherwise be stuck, as GitBook's editor does it:
 * - on a selected block that holds no text (an image, a file, a formula, an embed, a page reference…) or at a gap
 *   cursor: a new paragraph just after it, where its parents allow one (after the `images` block of an image);
 * - on an empty last paragraph of a block (a hint, a quote, a tab, a step, a column, an expandable's body, a
 *   conditional block…): that paragraph leaves the block and goes just after it (after the tabs of a tab, the
 *   expandable of its body). ProseMirror's own lift splits the block instead, or cannot leave an expandable.
 * Either way the block at the end of a page, of a tab or of a column is no dead end.
 */
const LeaveBlock = Extension.create({
  name: 'leaveBlock',
  priority: 1000,
  addKeyboardShortcuts() {
    return {
      Enter: ({ editor }) => {
        const { state } = editor;
        const sel = state.selection;
        const paragraph = state.schema.nodes.paragraph!;
        /** A paragraph after the child of depth `d + 1` around `$pos` (or at `$pos` for d = its depth). */
        const placeAfter = ($pos: ResolvedPos, from: number) => {
          for (let d = from; d >= 0; d--) {
            const here = d === $pos.depth;
            const index = here ? $pos.index(d) : $pos.indexAfter(d);
            if ($pos.node(d).canReplaceWith(index, index, paragraph)) return here ? $pos.pos : $pos.after(d + 1);
          }
          return undefined;
        };
        if (sel instanceof GapCursor || (sel instanceof NodeSelection && sel.node.isBlock && sel.node.isAtom)) {
          const $pos = state.doc.resolve(sel.to);
          const at = placeAfter($pos, $pos.depth);
          if (at === undefined) return false;
          const tr = state.tr.insert(at, paragraph.create());
          editor.view.dispatch(tr.setSelection(TextSelection.create(tr.doc, at + 1)).scrollIntoView());
          return true;
        }
        const $c = sel.$from;
        if (!sel.empty || $c.parent.type !== paragraph || $c.parent.content.size || $c.depth < 2) return false;
        const block = $c.node(-1);
        const index = $c.index(-1);
        if (index !== block.childCount - 1 || OWN_ENTER.has(block.type.name) || !block.canReplace(index, index + 1))
          return false;
        const at = placeAfter($c, $c.depth - 2);
        if (at === undefined) return false;
        const tr = state.tr.delete($c.before(), $c.after());
        const moved = tr.mapping.map(at);
        tr.insert(moved, paragraph.create());
        editor.view.dispatch(tr.setSelection(TextSelection.create(tr.doc, moved + 1)).scrollIntoView());
        return true;
      },
    };
  },
});

/**
 * Every extension of the editor, in one list (collab adds its own next to them). `undo: false` leaves the undo
 * history out: live collaboration brings Y.js' own (per writer), and TipTap refuses both together.
 */
export function gitbookExtensions(options: { undo?: boolean } = {}): AnyExtension[] {
  return [
    Document.extend({
      content: 'tl*',
      addAttributes: () => ({ data: { default: {}, rendered: false }, rest: { default: null, rendered: false } }),
    }),
    Text,
    withGb(Paragraph, 'paragraph'),
    withGb(Heading.configure({ levels: [1, 2, 3] }), 'heading'),
    withGb(BulletList, 'list-unordered'),
    withGb(OrderedList, 'list-ordered'),
    withGb(TaskList, 'list-tasks'),
    withGb(ListItem, 'list-item', { content: 'li*', group: 'listItem' }),
    withGb(TaskItem.configure({ nested: true }), 'list-item', { content: 'li*', group: 'taskItem' }),
    ListKeymap,
    withGb(Blockquote, 'blockquote', { content: 'qc*' }),
    withGb(CodeBlock, 'code', {
      addAttributes(this: any) {
        return { ...this.parent?.(), ...gbAttributes(), lines: { default: null, rendered: false } };
      },
    }),
    withGb(HorizontalRule, 'divider'),
    HardBreak,
    Hint,
    container('tabs', 'tabs', 'tabsItem+', () => 'Tabs'),
    container('tabsItem', 'tabs-item', 'tc*', (a) => `Tab: ${a.data?.title ?? ''}`).extend({ group: 'tabsItem' }),
    container('stepper', 'stepper', 'stepperStep+', () => 'Stepper'),
    container('stepperStep', 'stepper-step', 'sc*', () => 'Step').extend({ group: 'stepperStep' }),
    container('updates', 'updates', 'update+', () => 'Updates'),
    container('update', 'update', 'sc*', (a) => `Update ${a.data?.date ?? ''}`).extend({ group: 'update' }),
    container('columns', 'columns', 'column+'),
    container('column', 'column', 'cc*').extend({ group: 'column' }),
    container('conditional', 'if', 'tl*', (a) => `If ${a.data?.expression ?? ''}`),
    container('conflict', 'conflict', 'conflictSide+', () => 'Conflict'),
    container('conflictSide', 'conflict-side', 'tl*', (a) => `Side: ${a.data?.title ?? ''}`).extend({
      group: 'conflictSide',
    }),
    container('images', 'images', 'image+'),
    container('expandable', 'expandable', 'expandableTitle expandableBody'),
    container('expandableTitle', 'expandable-title', 'paragraph').extend({
      group: 'expandableTitle',
      addAttributes: () => ({ rest: json('rest') }),
    }),
    container('expandableBody', 'expandable-body', 'ec*').extend({
      group: 'expandableBody',
      addAttributes: () => ({ rest: json('rest') }),
    }),
    withGb(Table.configure({ resizable: false, View: GitBookTableView }), 'table'),
    TableKeys,
    TableRow.extend({ content: 'tableCell*', addAttributes: () => ({ record: { default: null, rendered: false } }) }),
    TableCell.extend({
      content: 'paragraph+',
      // GitBook's tables have no header cells: a pasted <th> is a cell like the others
      parseHTML: () => [{ tag: 'td' }, { tag: 'th' }],
      addAttributes(this: any) {
        return { ...this.parent?.(), column: { default: null, rendered: false }, fragment: json('fragment') };
      },
    }),
    // the divider is the HorizontalRule above, every other void block an atom
    ...Object.entries(VOID_BLOCKS)
      .filter(([gb]) => gb !== 'divider')
      .map(([gb, name]) => atom(name, gb)),
    ...Object.entries(VOID_INLINES).map(([gb, name]) => inlineAtom(name, gb)),
    Opaque,
    OpaqueInline,
    Bold.extend({ addAttributes: () => ({ rest: json('rest') }) }),
    Italic.extend({ addAttributes: () => ({ rest: json('rest') }) }),
    Strike.extend({ addAttributes: () => ({ rest: json('rest') }) }),
    // GitBook lets inline code be bold, italic…: TipTap's code mark excludes every other mark by default
    Code.extend({ excludes: '', addAttributes: () => ({ rest: json('rest') }) }),
    simpleMark('keyboard', 'kbd'),
    simpleMark('superscript', 'sup'),
    simpleMark('subscript', 'sub'),
    TextColor,
    Link,
    Annotation,
    ...(options.undo === false ? [] : [UndoRedo]),
    Dropcursor,
    Gapcursor,
    LeaveBlock,
  ];
}
