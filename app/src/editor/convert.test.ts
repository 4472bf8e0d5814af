import { readdirSync, readFileSync } from 'node:fs';
import { getSchema } from '@tiptap/core';
import { Node as PMNode } from '@tiptap/pm/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentToEditor, type DocNode, editorToDocument, type EditorNode, opaqueCount } from '@quire/document/editor';
import { FIXTURES_DIR, markdownToDocument } from './fixtures.test-support.ts';
import { gitbookExtensions } from './schema.ts';

const schema = getSchema(gitbookExtensions());

/** Document -> editor JSON -> a ProseMirror document of the schema (checked) -> its JSON -> document. */
function roundTrip(doc: DocNode) {
  const json = documentToEditor(doc);
  const pm = PMNode.fromJSON(schema, json);
  pm.check();
  return { json, back: editorToDocument(pm.toJSON() as EditorNode) };
}

describe('the document fixtures', () => {
  const files = readdirSync(FIXTURES_DIR).filter((f) => /\.(md|txt)$/.test(f));
  it('has fixtures to read', () => expect(files.length).toBeGreaterThan(0));
  for (const file of files) {
    it(`${file}: document -> editor -> document is the identity, no block kept opaque`, () => {
      const doc = markdownToDocument(readFileSync(new URL(file, FIXTURES_DIR), 'utf8'));
      const { json, back } = roundTrip(doc);
      expect(back).toEqual(doc);
      expect(opaqueCount(json)).toBe(0);
    });
  }
});

// ── Generated documents (GitBook's normal form: a text around every inline, leaves merged, marks in order) ──
const word = fc.stringMatching(/^[a-zA-Z0-9 .,!?é€😀<>&"]{1,12}$/u);
const MARKS = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'];
const marks = fc
  .tuple(fc.subarray(MARKS), fc.option(fc.constantFrom('primary', 'info', 'danger'), { nil: undefined }))
  .map(([types, color]) => [
    ...types.map((type) => ({ object: 'mark', type })),
    ...(color ? [{ object: 'mark', type: 'color', data: { text: color, background: 'default' } }] : []),
  ]);
const leaves = fc
  .array(
    fc.tuple(
      fc.oneof(
        word,
        word.map((w) => `${w}\n${w}`),
      ),
      marks,
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((ls) => {
    const out: DocNode[] = [];
    for (const [text, m] of ls) {
      const prev = out[out.length - 1];
      if (prev && JSON.stringify(prev.marks) === JSON.stringify(m)) prev.text += text;
      else out.push({ object: 'leaf', text, marks: m });
    }
    return out;
  });
const text = (ls: DocNode[]) => ({ object: 'text', leaves: ls });
const emptyText = () => text([{ object: 'leaf', text: '', marks: [] }]);
const inlineAtom = fc.oneof(
  fc.constant({ object: 'inline', type: 'emoji', data: { code: '1f600' }, isVoid: true }),
  word.map((f) => ({ object: 'inline', type: 'inline-math', data: { formula: f }, isVoid: true })),
  word.map((e) => ({ object: 'inline', type: 'expression', data: { expression: e }, isVoid: true })),
  fc.constant({ object: 'inline', type: 'mention', data: { ref: { kind: 'page', page: 'p1' } }, isVoid: true }),
);
const link = fc
  .tuple(fc.webUrl(), leaves)
  .map(([url, ls]) => ({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [text(ls)] }));
const phrasing = fc
  .tuple(
    fc.option(leaves, { nil: undefined }),
    fc.array(fc.tuple(fc.oneof(inlineAtom, link), leaves), { maxLength: 3 }),
  )
  .map(([first, rest]) => [first ? text(first) : emptyText(), ...rest.flatMap(([inline, ls]) => [inline, text(ls)])]);

const block = (type: string, data: unknown, nodes: unknown[], extra: object = {}) => ({
  object: 'block',
  type,
  data,
  ...extra,
  nodes,
});
const paragraph = phrasing.map((nodes) => block('paragraph', {}, nodes));
const heading = fc
  .tuple(fc.constantFrom(1, 2, 3), phrasing)
  .map(([level, nodes]) => block(`heading-${level}`, {}, nodes));
const code = fc
  .tuple(
    fc.array(fc.stringMatching(/^[ -~]{0,20}$/), { minLength: 1, maxLength: 4 }),
    fc.record(
      { syntax: fc.constantFrom('js', 'python'), title: word, lineNumbers: fc.boolean() },
      { requiredKeys: [] },
    ),
  )
  .map(([lines, data]) =>
    block(
      'code',
      data,
      lines.map((line) => block('code-line', {}, [text([{ object: 'leaf', text: line, marks: [] }])])),
    ),
  );
const voids = fc.oneof(
  fc.constant({ object: 'block', type: 'divider', data: {}, isVoid: true }),
  word.map((formula) => ({ object: 'block', type: 'math', data: { formula }, isVoid: true })),
  fc.webUrl().map((url) => ({ object: 'block', type: 'embed', data: { url }, isVoid: true })),
  fc.constant({ object: 'block', type: 'content-ref', data: { ref: { kind: 'page', page: 'p2' } }, isVoid: true }),
  fc.constant({ object: 'block', type: 'file', data: { ref: { kind: 'file', file: 'f1' } }, isVoid: true }),
  word.map((html) => ({ object: 'block', type: 'html', data: { html }, isVoid: true })),
  fc.constant({
    object: 'block',
    type: 'openapi-operation',
    data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'get' },
    isVoid: true,
  }),
);

// A table with columns that are not text (GitBook's number, checkbox, rating, select, link, files and image columns),
// mixed among its text columns, shown as a grid or as cards: their values live in the records, edited in the table's
// settings (table-data.ts), and come back as they were.
const VALUE_COLUMNS: Record<string, { def: object; value: fc.Arbitrary<unknown> }> = {
  number: { def: {}, value: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }) },
  checkbox: { def: {}, value: fc.boolean() },
  rating: { def: { max: 5 }, value: fc.integer({ min: 0, max: 5 }) },
  select: {
    def: { multiple: true, options: [{ value: 'o1', label: 'One', color: 'blue' }] },
    value: fc.constant(['o1']),
  },
  'content-ref': { def: {}, value: fc.webUrl().map((url) => ({ kind: 'url', url })) },
  files: { def: {}, value: fc.constant(['file-1']) },
  image: { def: {}, value: fc.constant({ kind: 'file', file: 'img-1' }) },
};
const richTable = fc
  .tuple(
    fc.array(fc.constantFrom('text', ...Object.keys(VALUE_COLUMNS)), { minLength: 2, maxLength: 5 }),
    fc.integer({ min: 1, max: 3 }),
    fc.boolean(),
  )
  .chain(([types0, rows, cards]) => {
    const types = types0.includes('text') ? types0 : ['text', ...types0];
    const ids = types.map((_, i) => `c${i + 1}`);
    const cell = (t: string) =>
      t === 'text' ? phrasing.map((nodes) => ({ nodes })) : fc.option(VALUE_COLUMNS[t]!.value, { nil: undefined });
    return fc
      .tuple(
        fc.constant({ types, ids, cards }),
        fc.array(fc.tuple(...types.map(cell)), { minLength: rows, maxLength: rows }),
        fc.constantFrom('left', 'center', 'right'),
      )
      .map(([{ types, ids, cards }, cells, align]) => {
        const definition = Object.fromEntries(
          types.map((t, i) => [
            ids[i]!,
            t === 'text'
              ? { id: ids[i], title: `T${i}`, type: t, textAlignment: align }
              : { id: ids[i], title: `V${i}`, type: t, ...VALUE_COLUMNS[t]!.def },
          ]),
        );
        const fragments: DocNode[] = [];
        const records = Object.fromEntries(
          cells.map((row, r) => {
            const values: Record<string, unknown> = {};
            row.forEach((v, i) => {
              if (types[i] === 'text') {
                values[ids[i]!] = `r${r}-${ids[i]}`;
                fragments.push({
                  object: 'fragment',
                  fragment: `r${r}-${ids[i]}`,
                  nodes: [block('paragraph', {}, (v as { nodes: unknown[] }).nodes)],
                });
              } else if (v !== undefined) values[ids[i]!] = v;
            });
            return [`r${r}`, { orderIndex: `a${r}`, values }];
          }),
        );
        const cover = ids.find((_, i) => types[i] === 'image');
        const target = ids.find((_, i) => types[i] === 'content-ref');
        const view = cards
          ? {
              type: 'cards',
              columns: ids,
              cardSize: 'large',
              ...(cover ? { coverDefinition: cover } : {}),
              ...(target ? { targetDefinition: target } : {}),
            }
          : { type: 'grid', columns: ids, hideHeader: false };
        return { object: 'block', type: 'table', data: { view, records, definition }, fragments, isVoid: true };
      });
  });

const { top } = fc.letrec<{ top: DocNode; essential: DocNode; list: DocNode; inner: DocNode }>((tie) => ({
  essential: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    paragraph,
    heading,
    tie('list'),
    fc.constant({ object: 'block', type: 'divider', data: {}, isVoid: true }),
  ),
  list: fc
    .tuple(
      fc.constantFrom('list-unordered', 'list-ordered', 'list-tasks'),
      fc.array(fc.tuple(fc.array(fc.oneof(paragraph, tie('list')), { minLength: 1, maxLength: 2 }), fc.boolean()), {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([type, items]) =>
      block(
        type,
        {},
        items.map(([nodes, checked]) => block('list-item', type === 'list-tasks' ? { checked } : {}, nodes)),
      ),
    ),
  // what a hint, a tab, a step, a column and an expandable body all admit
  inner: fc.oneof(tie('essential'), tie('essential')),
  top: fc.oneof(
    { depthSize: 'small' },
    tie('essential'),
    code,
    voids,
    fc
      .tuple(fc.constantFrom('info', 'warning', 'danger', 'success'), fc.array(tie('inner'), { maxLength: 3 }))
      .map(([style, nodes]) => block('hint', { style }, nodes)),
    fc.array(tie('essential'), { maxLength: 2 }).map((nodes) => block('blockquote', {}, nodes)),
    fc
      .array(fc.tuple(word, fc.array(fc.oneof(tie('inner'), code), { maxLength: 2 })), { minLength: 1, maxLength: 3 })
      .map((tabs) =>
        block(
          'tabs',
          {},
          tabs.map(([title, nodes]) => block('tabs-item', { title }, nodes)),
        ),
      ),
    fc.array(fc.array(tie('inner'), { maxLength: 2 }), { minLength: 1, maxLength: 3 }).map((steps) =>
      block(
        'stepper',
        {},
        steps.map((nodes) => block('stepper-step', {}, nodes)),
      ),
    ),
    fc.array(fc.array(fc.oneof(tie('inner'), code), { maxLength: 2 }), { minLength: 1, maxLength: 3 }).map((cols) =>
      block(
        'columns',
        {},
        cols.map((nodes) => block('column', {}, nodes)),
        { isVoid: false },
      ),
    ),
    fc
      .tuple(word, fc.array(tie('top'), { maxLength: 2 }))
      .map(([expression, nodes]) => block('if', { expression }, nodes)),
    fc
      .tuple(phrasing, fc.array(tie('inner'), { minLength: 1, maxLength: 2 }), fc.boolean())
      .map(([title, body, open]) => ({
        object: 'block',
        type: 'expandable',
        data: open ? { defaultExpanded: true } : {},
        fragments: [
          {
            object: 'fragment',
            fragment: 'expandable-title',
            type: 'expandable-title',
            nodes: [block('paragraph', {}, title)],
          },
          { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body },
        ],
        isVoid: true,
      })),
    fc.array(fc.array(phrasing, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 3 }).map((rows) => ({
      object: 'block',
      type: 'table',
      data: {
        view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
        records: Object.fromEntries(
          rows.map((_, r) => [`r${r}`, { orderIndex: `a${r}`, values: { c1: `r${r}-c1`, c2: `r${r}-c2` } }]),
        ),
        definition: {
          c1: { id: 'c1', title: 'A', type: 'text', textAlignment: 'left' },
          c2: { id: 'c2', title: 'B', type: 'text', textAlignment: 'right' },
        },
      },
      fragments: rows.flatMap((cells, r) =>
        cells.map((nodes, c) => ({
          object: 'fragment',
          fragment: `r${r}-c${c + 1}`,
          nodes: [block('paragraph', {}, nodes)],
        })),
      ),
      isVoid: true,
    })),
    richTable,
  ),
}));

/** Gives some blocks and inlines a key, unique in the document, as GitBook does. */
function keyed(doc: DocNode, pick: boolean[]): DocNode {
  let i = 0;
  const walk = (n: any): any => {
    if (Array.isArray(n)) return n.map(walk);
    if (!n || typeof n !== 'object') return n;
    const out: any = {};
    for (const [k, v] of Object.entries(n)) out[k] = k === 'data' ? v : walk(v);
    if ((n.object === 'block' || n.object === 'inline') && pick[i++ % pick.length]) out.key = `k${i}`;
    return out;
  };
  return walk(doc);
}

const documents = fc
  .tuple(fc.array(top, { maxLength: 6 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }))
  .map(([nodes, pick]) => keyed({ object: 'document', data: {}, nodes }, pick));

describe('generated documents', () => {
  it('document -> editor -> ProseMirror -> editor -> document is the identity, nothing kept opaque', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        const { json, back } = roundTrip(doc);
        expect(back).toEqual(doc);
        expect(opaqueCount(json)).toBe(0);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});

describe('what the editor cannot map is kept, not dropped', () => {
  it('keeps an unknown block whole in an opaque node', () => {
    const odd = { object: 'block', type: 'from-the-future', data: { x: 1 }, nodes: [] };
    const doc = { object: 'document', data: {}, nodes: [odd] };
    const json = documentToEditor(doc);
    expect(json.content?.[0]).toEqual({ type: 'opaque', attrs: { node: odd } });
    expect(editorToDocument(json)).toEqual(doc);
  });
  it('keeps a code block with a marked line opaque, the rest editable', () => {
    const marked = {
      object: 'block',
      type: 'code',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'code-line',
          data: {},
          nodes: [text([{ object: 'leaf', text: 'x', marks: [{ object: 'mark', type: 'bold' }] }])],
        },
      ],
    };
    const doc = { object: 'document', data: {}, nodes: [block('paragraph', {}, [emptyText()]), marked] };
    const json = documentToEditor(doc);
    expect(json.content?.map((c) => c.type)).toEqual(['paragraph', 'opaque']);
    expect(editorToDocument(json)).toEqual(doc);
  });
});

describe('blocks made in the editor', () => {
  it('get the fields GitBook requires, and a split block does not copy its key', () => {
    const json: EditorNode = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title' }] },
        { type: 'paragraph', attrs: { key: 'a' }, content: [{ type: 'text', text: 'one' }] },
        { type: 'paragraph', attrs: { key: 'a' }, content: [{ type: 'text', text: 'two', marks: [{ type: 'bold' }] }] },
        { type: 'horizontalRule' },
        {
          type: 'taskList',
          content: [{ type: 'taskItem', attrs: { checked: true }, content: [{ type: 'paragraph' }] }],
        },
        { type: 'codeBlock', attrs: { language: 'ts' }, content: [{ type: 'text', text: 'a\nb' }] },
        { type: 'hint', attrs: { data: { style: 'warning' } }, content: [{ type: 'paragraph' }] },
      ],
    };
    const doc = editorToDocument(json) as DocNode;
    expect(doc.nodes.map((n: DocNode) => n.type)).toEqual([
      'heading-2',
      'paragraph',
      'paragraph',
      'divider',
      'list-tasks',
      'code',
      'hint',
    ]);
    expect(doc.nodes[1].key).toBe('a');
    expect(doc.nodes[2].key).toBeUndefined();
    expect(doc.nodes[2].nodes[0].leaves).toEqual([
      { object: 'leaf', text: 'two', marks: [{ object: 'mark', type: 'bold' }] },
    ]);
    expect(doc.nodes[3]).toEqual({ object: 'block', type: 'divider', data: {}, isVoid: true });
    expect(doc.nodes[4].nodes[0].data).toEqual({ checked: true });
    expect(doc.nodes[5].data).toEqual({ syntax: 'ts' });
    expect(doc.nodes[5].nodes).toHaveLength(2);
    expect(doc.nodes[6].data).toEqual({ style: 'warning' });
  });
});
