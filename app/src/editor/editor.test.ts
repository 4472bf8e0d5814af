// @vitest-environment happy-dom
import { JSONDocumentSchema } from '@quire/contracts';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOCKS, matching } from './blocks.ts';
import { type DocNode, editorToDocument } from '@quire/document/editor';
import { doc, para } from '@quire/document/testing';
import { createEditor } from './create.ts';
import { EarlyKeys } from './early-keys.ts';
import { loadMarkdownConverter, looksLikeMarkdown } from './markdown-paste.ts';
import { describeAtom } from './schema.ts';
import { fieldsOf, lengthOf, SETTINGS, setField, targetOf, valueOf } from './settings.ts';
import { describeRef, headingsOf, linkAt, removeLink, setLink, slugOf, urlOf } from './links.ts';
import { runTableAction } from './table.ts';
import { insertTyped } from './typed-keys.ts';
import { fileNames, imagesNode, pageTitles, spaceTitles } from './uploads.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

const open = (document: unknown = { object: 'document', data: {}, nodes: [] }) => {
  editor = createEditor({ element: window.document.createElement('div'), document });
  return editor;
};
const docOf = (e: Editor) => editorToDocument(e.getJSON()) as DocNode;
const valid = (e: Editor) => expect(JSONDocumentSchema.safeParse(docOf(e)).error?.issues ?? []).toEqual([]);
const text = (n: DocNode): string =>
  n.object === 'text' ? n.leaves.map((l: DocNode) => l.text).join('') : (n.nodes ?? []).map(text).join('');

describe('the / menu', () => {
  it('finds blocks by what is typed after /', () => {
    expect(matching('head').map((b) => b.label)).toEqual(['Heading 1', 'Heading 2', 'Heading 3']);
    expect(matching('tab').map((b) => b.label)).toEqual(['Tabs', 'Table']);
    expect(matching('nothing like it')).toEqual([]);
  });

  // Image, File and Page reference are completed by the screen (a file chooser, the page picker): uploads.test.ts
  for (const block of BLOCKS.filter((b) => !b.action)) {
    it(`${block.label}: inserted into a page, the page is a document the API accepts`, () => {
      const e = open();
      e.commands.insertContent('Some text');
      if (block.id === 'text') e.commands.setHeading({ level: 2 }); // "Text" turns a heading back into a paragraph
      expect(block.run(e)).toBe(true);
      const doc = docOf(e);
      const parsed = JSONDocumentSchema.safeParse(doc);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(doc.nodes.length).toBeGreaterThan(0);
    });
  }
});

// The first test loads the markdown converter cold (remark, micromark and their extensions): seconds on a busy machine.
describe('markdown paste (GitBook markdown through the document package)', { timeout: 30_000 }, () => {
  const paste = (e: Editor, text: string, types = ['text/plain']) => {
    const event = { clipboardData: { types, getData: (t: string) => (t === 'text/plain' ? text : '') } };
    return e.view.someProp('handlePaste', (f) => f(e.view, event as unknown as ClipboardEvent, e.state.doc.slice(0)));
  };

  it('reads pasted markdown into GitBook blocks, GitBook tags included', async () => {
    await loadMarkdownConverter();
    const e = open();
    const md =
      '# Install\n\n- one\n- **two**\n\n{% hint style="warning" %}\nCareful\n{% endhint %}\n\n```js\nlet a = 1;\n```\n';
    expect(paste(e, md)).toBe(true);
    const doc = docOf(e);
    expect(doc.nodes.map((n: DocNode) => n.type)).toEqual(['heading-1', 'list-unordered', 'hint', 'code']);
    expect(doc.nodes[2].data).toEqual({ style: 'warning' });
    expect(text(doc.nodes[2])).toBe('Careful');
    expect(JSONDocumentSchema.safeParse(doc).error?.issues ?? []).toEqual([]);
  });

  it('leaves plain prose, HTML on the clipboard and code blocks to the usual paste', async () => {
    await loadMarkdownConverter();
    expect(looksLikeMarkdown('Just a sentence, with a comma.')).toBe(false);
    expect(looksLikeMarkdown('See [the guide](https://x.io).')).toBe(true);
    const e = open();
    expect(paste(e, 'Just a sentence.')).toBeFalsy();
    expect(paste(e, '# Title', ['text/plain', 'text/html'])).toBeFalsy();
    e.commands.setContent('<pre><code>x</code></pre>');
    expect(paste(e, '# not a heading in code')).toBeFalsy();
  });
});

describe('HTML paste (the schema parse rules)', () => {
  it('reads headings, lists, quotes, code, marks, links and tables into GitBook blocks', () => {
    const e = open();
    e.commands.setContent(
      '<h2>Title</h2><p>A <strong>bold</strong> <a href="https://example.com">link</a></p>' +
        '<ul><li><p>one</p></li><li><p>two</p></li></ul><blockquote><p>quoted</p></blockquote>' +
        '<pre><code class="language-js">let a = 1;\nlet b = 2;</code></pre><hr>' +
        '<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>',
    );
    const doc = docOf(e);
    expect(doc.nodes.map((n: DocNode) => n.type)).toEqual([
      'heading-2',
      'paragraph',
      'list-unordered',
      'blockquote',
      'code',
      'divider',
      'table',
    ]);
    expect(doc.nodes[1].nodes[1]).toEqual({
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'url', url: 'https://example.com' } },
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'link', marks: [] }] }],
    });
    expect(doc.nodes[1].nodes[0].leaves[1]).toEqual({
      object: 'leaf',
      text: 'bold',
      marks: [{ object: 'mark', type: 'bold' }],
    });
    expect(doc.nodes[4].data).toEqual({ syntax: 'js' });
    expect(doc.nodes[4].nodes).toHaveLength(2);
    const table = doc.nodes[6];
    expect(Object.keys(table.data.definition)).toHaveLength(2);
    expect(table.fragments.map(text)).toEqual(['Name', 'Value', 'a', '1']);
    expect(JSONDocumentSchema.safeParse(doc).error?.issues ?? []).toEqual([]);
  });

  it('keeps GitBook blocks copied inside the editor (their data travels in the HTML)', () => {
    const e = open();
    e.commands.setContent(
      '<div data-gb-type="hint" data-gb-data="{&quot;style&quot;:&quot;danger&quot;}"><p>Careful</p></div>' +
        '<div data-gb-type="math" data-gb-data="{&quot;formula&quot;:&quot;E=mc^2&quot;}" data-gb-rest="{&quot;isVoid&quot;:true}"></div>',
    );
    const doc = docOf(e);
    expect(doc.nodes[0]).toMatchObject({ type: 'hint', data: { style: 'danger' } });
    expect(text(doc.nodes[0])).toBe('Careful');
    expect(doc.nodes[1]).toEqual({ object: 'block', type: 'math', data: { formula: 'E=mc^2' }, isVoid: true });
  });
});

describe('block settings', () => {
  it('sets a code block language and title, a hint style, a math formula, all undoable', () => {
    const e = open();
    e.chain().setCodeBlock().insertContent('x').run();
    let t = targetOf(e)!;
    expect(t.type).toBe('codeBlock');
    const [language, title, lineNumbers] = SETTINGS.codeBlock!.fields;
    setField(e, t.pos, language!, 'ts');
    setField(e, t.pos, title!, 'main.ts');
    setField(e, t.pos, lineNumbers!, true);
    t = targetOf(e)!;
    expect(valueOf(t, title!)).toBe('main.ts');
    expect(docOf(e).nodes[0].data).toEqual({ syntax: 'ts', title: 'main.ts', lineNumbers: true });
    setField(e, t.pos, title!, '');
    expect(docOf(e).nodes[0].data).toEqual({ syntax: 'ts', lineNumbers: true });
    e.commands.undo();
    expect(docOf(e).nodes[0].data.title).toBe('main.ts');

    const h = open();
    BLOCKS.find((b) => b.id === 'hint-info')!.run(h);
    const hint = targetOf(h)!;
    setField(h, hint.pos, SETTINGS.hint!.fields[0]!, 'danger');
    expect(docOf(h).nodes.find((n: DocNode) => n.type === 'hint').data).toEqual({ style: 'danger' });

    const m = open();
    BLOCKS.find((b) => b.id === 'math')!.run(m);
    const at = docOf(m).nodes.findIndex((n: DocNode) => n.type === 'math');
    let pos = 0;
    m.state.doc.forEach((_node, offset, index) => {
      if (index === at) pos = offset;
    });
    m.commands.setNodeSelection(pos);
    setField(m, targetOf(m)!.pos, SETTINGS.mathBlock!.fields[0]!, 'E=mc^2');
    expect(docOf(m).nodes[at]).toEqual({ object: 'block', type: 'math', data: { formula: 'E=mc^2' }, isVoid: true });
  });
});

/** Types as a keyboard would: each character as the editor inserts a typed key (through the input rules). */
function type(e: Editor, input: string) {
  for (const ch of input) insertTyped(e.view, ch);
}

/** Presses Enter in the editor (its key handlers, as a keyboard would). */
const enter = (e: Editor) =>
  e.view.someProp('handleKeyDown', (f) => f(e.view, new KeyboardEvent('keydown', { key: 'Enter' })));

describe('typed keys', () => {
  /** A key as the browser sends it: its keypress event on the editor's text; whether the editor took it. */
  const press = (e: Editor, key: string, init: KeyboardEventInit = {}) => {
    const event = new KeyboardEvent('keypress', { key, bubbles: true, cancelable: true, ...init });
    // happy-dom's KeyboardEvent has no charCode (a browser's keypress carries the character's)
    Object.defineProperty(event, 'charCode', { value: key.charCodeAt(0) });
    e.view.dom.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('inserts a typed character itself, through the markdown shortcuts', () => {
    const e = open(doc());
    e.commands.focus('end');
    for (const ch of '## Hi') expect(press(e, ch)).toBe(true);
    const [heading] = docOf(e).nodes;
    expect(heading.type).toBe('heading-2');
    expect(text(heading)).toBe('Hi');
  });

  it('leaves Ctrl keys, Enter and a selection of text to the editor and the browser', () => {
    const e = open(doc());
    e.commands.insertContent('abc');
    expect(press(e, 'b', { ctrlKey: true })).toBe(false);
    expect(press(e, '\r')).toBe(false);
    e.commands.setTextSelection({ from: 1, to: 3 });
    expect(press(e, 'x')).toBe(false);
    expect(text(docOf(e).nodes[0])).toBe('abc');
  });
});

describe('markdown shortcuts', () => {
  const cases: [string, string, Record<string, unknown>?][] = [
    ['# Title', 'heading-1'],
    ['### Small', 'heading-3'],
    ['- item', 'list-unordered'],
    ['1. first', 'list-ordered'],
    ['[ ] task', 'list-tasks'],
    ['> quoted', 'blockquote'],
    ['```js code', 'code', { syntax: 'js' }],
    ['!!!warning careful', 'hint', { style: 'warning' }],
    ['!!! note', 'hint', { style: 'info' }],
  ];
  for (const [input, blockType, data] of cases) {
    it(`"${input}" makes a ${blockType}`, () => {
      const e = open();
      type(e, input);
      const [first] = docOf(e).nodes;
      expect(first.type).toBe(blockType);
      if (data) expect(first.data).toEqual(data);
      expect(JSONDocumentSchema.safeParse(docOf(e)).success).toBe(true);
    });
  }
  it('a hint typed just below another is a hint of its own', () => {
    const e = open();
    type(e, '!!! first');
    enter(e);
    enter(e);
    type(e, '!!!warning second');
    const hints = docOf(e).nodes.filter((n: DocNode) => n.type === 'hint');
    expect(hints.map((h: DocNode) => [h.data.style, text(h)])).toEqual([
      ['info', 'first'],
      ['warning', 'second'],
    ]);
  });
  it('marks: **bold** and `code`', () => {
    const e = open();
    type(e, 'a **b** `c` ');
    expect(docOf(e).nodes[0].nodes[0].leaves).toEqual([
      { object: 'leaf', text: 'a ', marks: [] },
      { object: 'leaf', text: 'b', marks: [{ object: 'mark', type: 'bold' }] },
      { object: 'leaf', text: ' ', marks: [] },
      { object: 'leaf', text: 'c', marks: [{ object: 'mark', type: 'code' }] },
      { object: 'leaf', text: ' ', marks: [] },
    ]);
  });
});

describe('table settings', () => {
  it('renames a column: its title in the definition', () => {
    const e = open();
    BLOCKS.find((b) => b.id === 'table')!.run(e);
    const t = targetOf(e)!;
    expect(t.type).toBe('table');
    const fields = fieldsOf(t).filter((f) => f.kind === 'text');
    expect(fields.map((f) => f.label)).toEqual(['Column 1 title', 'Column 2 title']);
    expect(valueOf(t, fields[0]!)).toBe('Column 1');
    setField(e, t.pos, fields[1]!, 'Price');
    const table = docOf(e).nodes.find((n: DocNode) => n.type === 'table');
    expect(table.data.definition.c2.title).toBe('Price');
    expect(JSONDocumentSchema.safeParse(docOf(e)).success).toBe(true);
  });
});

describe('the caret block', () => {
  it('marks the top-level block holding the caret, and only it, as it moves (Enter makes a new one)', () => {
    const e = open();
    e.commands.insertContent('One');
    e.commands.enter();
    e.commands.insertContent('Two');
    const marked = () => [...e.view.dom.querySelectorAll(':scope > .caret-block')].map((el) => el.textContent);
    expect(marked()).toEqual(['Two']);
    e.commands.setTextSelection(2);
    expect(marked()).toEqual(['One']);
    e.commands.selectAll();
    expect(marked()).toEqual(['One', 'Two']);
  });
  it('marks a page of more than 200 blocks as long (its blocks off screen are skipped), a shorter one not', () => {
    const page = (n: number) => doc(...Array.from({ length: n }, (_, i) => para(`P${i}`)));
    expect(open(page(200)).view.dom.classList.contains('long-document')).toBe(false);
    editor?.destroy();
    const long = open(page(201));
    expect(long.view.dom.classList.contains('long-document')).toBe(true);
    expect(long.view.dom.classList.contains('editor-content')).toBe(true);
  });
});

describe('table header row', () => {
  it("hides and shows the header row: GitBook's view.hideHeader", () => {
    const e = open();
    BLOCKS.find((b) => b.id === 'table')!.run(e);
    const header = fieldsOf(targetOf(e)!).find((f) => f.label === 'Header row')!;
    expect(valueOf(targetOf(e)!, header)).toBe(true);
    const view = () => docOf(e).nodes.find((n: DocNode) => n.type === 'table').data.view;
    setField(e, targetOf(e)!.pos, header, false);
    expect(view()).toEqual({ type: 'grid', columns: ['c1', 'c2'], hideHeader: true });
    expect(valueOf(targetOf(e)!, header)).toBe(false);
    setField(e, targetOf(e)!.pos, header, true);
    expect(view().hideHeader).toBe(false);
    expect(JSONDocumentSchema.safeParse(docOf(e)).success).toBe(true);
  });
  it('has no header row in the cards view', () => {
    const e = open();
    BLOCKS.find((b) => b.id === 'table')!.run(e);
    const t = targetOf(e)!;
    const cards = { ...t, attrs: { ...t.attrs, data: { ...t.attrs.data, view: { type: 'cards', columns: [] } } } };
    expect(fieldsOf(cards).map((f) => f.label)).toEqual(['Column 1 title', 'Column 2 title']);
  });
});

describe('undo and redo', () => {
  it('undoes a typed heading and redoes it', () => {
    const e = open(doc(para('Hi')));
    e.chain().setHeading({ level: 1 }).run();
    expect(docOf(e).nodes[0].type).toBe('heading-1');
    e.commands.undo();
    expect(docOf(e).nodes[0].type).toBe('paragraph');
    e.commands.redo();
    expect(docOf(e).nodes[0].type).toBe('heading-1');
  });
});

describe('Enter leaves a block', () => {
  for (const id of ['tabs', 'expandable', 'stepper', 'columns', 'hint-info', 'quote', 'if']) {
    it(`${id}: Enter on its empty last paragraph goes below the block`, () => {
      const e = open();
      if (id === 'quote') e.chain().setBlockquote().run();
      else BLOCKS.find((b) => b.id === id)!.run(e);
      type(e, 'inside');
      enter(e);
      enter(e);
      type(e, 'after');
      const doc = docOf(e);
      expect(doc.nodes).toHaveLength(2);
      expect(doc.nodes[1]).toMatchObject({ type: 'paragraph' });
      expect(text(doc.nodes[1])).toBe('after');
      expect(JSON.stringify(doc.nodes[0])).toContain('"inside"');
      expect(JSONDocumentSchema.safeParse(doc).error?.issues ?? []).toEqual([]);
    });
  }

  it('a list keeps its own Enter (an empty item leaves the list), a table cell its own', () => {
    const e = open();
    type(e, '- one');
    enter(e);
    enter(e);
    type(e, 'after');
    expect(docOf(e).nodes.map((n: DocNode) => n.type)).toEqual(['list-unordered', 'paragraph']);
  });

  it('Enter on a selected image or formula: a paragraph below it', () => {
    const e = open();
    e.commands.insertContent(imagesNode('f1', 'dot'));
    e.commands.setNodeSelection(1);
    expect(targetOf(e)?.type).toBe('image');
    enter(e);
    type(e, 'below the image');
    enter(e);
    BLOCKS.find((b) => b.id === 'math')!.run(e);
    let math = 0;
    e.state.doc.forEach((n, offset) => {
      if (n.type.name === 'mathBlock') math = offset;
    });
    e.commands.setNodeSelection(math);
    enter(e);
    type(e, 'below the formula');
    const doc = docOf(e);
    expect(doc.nodes.map((n: DocNode) => n.type)).toEqual(['images', 'paragraph', 'math', 'paragraph']);
    expect(text(doc.nodes[1])).toBe('below the image');
    expect(text(doc.nodes[3])).toBe('below the formula');
  });
});

describe('image settings', () => {
  it("sets an image's alt text and caption (GitBook's caption fragment), and removes the caption", () => {
    const e = open();
    e.commands.insertContent(imagesNode('f1', 'dot'));
    e.commands.setNodeSelection(1);
    const t = targetOf(e)!;
    const [alt, caption] = fieldsOf(t);
    expect([alt?.label, caption?.label]).toEqual(['Alt text', 'Caption']);
    expect(valueOf(t, alt!)).toBe('dot');
    setField(e, t.pos, alt!, 'A blue dot');
    setField(e, t.pos, caption!, 'The dot, enlarged');
    const image = docOf(e).nodes[0].nodes[0];
    expect(image).toEqual({
      object: 'block',
      type: 'image',
      data: { ref: { kind: 'file', file: 'f1' }, alt: 'A blue dot' },
      isVoid: true,
      fragments: [
        {
          object: 'fragment',
          fragment: 'caption',
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              data: {},
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'The dot, enlarged', marks: [] }] }],
            },
          ],
        },
      ],
    });
    expect(JSONDocumentSchema.safeParse(docOf(e)).error?.issues ?? []).toEqual([]);
    expect(valueOf(targetOf(e)!, caption!)).toBe('The dot, enlarged');
    expect(describeAtom('image', targetOf(e)!.attrs)).toBe('Image: A blue dot · The dot, enlarged');
    setField(e, targetOf(e)!.pos, caption!, '');
    expect(docOf(e).nodes[0].nodes[0].fragments).toEqual([]);
  });

  it('shows a formatted caption without editing it (plain text would lose its marks)', () => {
    const leaves = [
      { object: 'leaf', text: 'Very ', marks: [] },
      { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] },
    ];
    const caption = {
      object: 'fragment',
      fragment: 'caption',
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves }] }],
    };
    const image = {
      object: 'block',
      type: 'image',
      data: { ref: { kind: 'url', url: 'https://example.com/a.png' } },
      isVoid: true,
      fragments: [caption],
    };
    const e = open({
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'images', data: {}, isVoid: false, nodes: [image] }],
    });
    e.commands.setNodeSelection(1);
    const t = targetOf(e)!;
    const field = fieldsOf(t)[1]!;
    expect(field).toMatchObject({ readOnly: true, label: 'Caption (formatted: kept as it is)' });
    expect(valueOf(t, field)).toBe('Very bold');
    expect(setField(e, t.pos, field, 'Plain')).toBe(false);
    expect(docOf(e).nodes[0].nodes[0].fragments).toEqual([caption]);
  });
});

describe('table rows and columns', () => {
  const table = (e: Editor) => docOf(e).nodes.find((n: DocNode) => n.type === 'table');
  /** The table's cells as text, row by row, in the order of its view's columns (as the published site reads it). */
  const grid = (e: Editor) => {
    const t = table(e);
    const fragments = new Map(t.fragments.map((f: DocNode) => [f.fragment, text(f)]));
    return Object.values(t.data.records as Record<string, DocNode>)
      .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1))
      .map((r) => t.data.view.columns.map((c: string) => fragments.get(r.values[c]) ?? '∅'));
  };
  const titles = (e: Editor) => [...e.view.dom.querySelectorAll('thead th')].map((th) => th.textContent);
  const withTable = () => {
    const e = open();
    BLOCKS.find((b) => b.id === 'table')!.run(e);
    let first = 0;
    e.state.doc.descendants((n, pos) => {
      if (!first && n.type.name === 'tableCell') first = pos;
    });
    e.chain()
      .setTextSelection(first + 2)
      .insertContent('a')
      .goToNextCell()
      .insertContent('b')
      .run();
    return e;
  };

  it('draws the header row of the column titles, and hides it with the header row setting', () => {
    const e = withTable();
    expect(titles(e)).toEqual(['Column 1', 'Column 2']);
    const header = fieldsOf(targetOf(e)!).find((f) => f.label === 'Header row')!;
    setField(e, targetOf(e)!.pos, header, false);
    expect(e.view.dom.querySelector('thead')!.hidden).toBe(true);
    setField(e, targetOf(e)!.pos, header, true);
    const title = fieldsOf(targetOf(e)!).find((f) => f.label === 'Column 2 title')!;
    setField(e, targetOf(e)!.pos, title, '<b>Price</b>');
    expect(titles(e)).toEqual(['Column 1', '<b>Price</b>']);
    expect(e.view.dom.querySelector('thead b')).toBeNull();
  });

  it('adds a column on either side of the cursor: its definition, view and cells', () => {
    const e = withTable(); // cursor in the cell "b", column 2
    expect(runTableAction(e, 'addColumnBefore')).toEqual({ done: true, message: 'Column added on the left.' });
    expect(grid(e)).toEqual([
      ['a', '', 'b'],
      ['', '', ''],
    ]);
    expect(titles(e)).toEqual(['Column 1', '', 'Column 2']);
    expect(runTableAction(e, 'addColumnAfter').done).toBe(true);
    expect(grid(e)[0]).toEqual(['a', '', 'b', '']);
    const t = table(e);
    expect(Object.keys(t.data.definition)).toEqual(t.data.view.columns);
    expect(Object.values(t.data.definition).map((d: any) => [d.type, d.title])).toEqual([
      ['text', 'Column 1'],
      ['text', ''],
      ['text', 'Column 2'],
      ['text', ''],
    ]);
    valid(e);
    // the document goes back into the editor as it is
    editor?.destroy();
    const again = open(docOf(e));
    expect(grid(again)).toEqual([
      ['a', '', 'b', ''],
      ['', '', '', ''],
    ]);
  });

  it('deletes a column: its definition, its values in every record and its cells go', () => {
    const e = withTable();
    expect(runTableAction(e, 'deleteColumn').done).toBe(true);
    expect(grid(e)).toEqual([['a'], ['']]);
    const t = table(e);
    expect(Object.keys(t.data.definition)).toEqual(['c1']);
    expect(Object.values(t.data.records).map((r: any) => Object.keys(r.values))).toEqual([['c1'], ['c1']]);
    expect(t.fragments).toHaveLength(2);
    valid(e);
    expect(runTableAction(e, 'deleteColumn')).toEqual({
      done: false,
      message: 'A table keeps at least one column: delete the table instead.',
    });
  });

  it('adds rows above and below, deletes a row, keeps one', () => {
    const e = withTable();
    expect(runTableAction(e, 'addRowBefore').done).toBe(true);
    expect(runTableAction(e, 'addRowAfter').done).toBe(true);
    expect(grid(e)).toEqual([
      ['', ''],
      ['a', 'b'],
      ['', ''],
      ['', ''],
    ]);
    valid(e);
    expect(runTableAction(e, 'deleteRow').message).toBe('Row deleted.');
    expect(grid(e).map((r) => r.join('|'))).toEqual(['|', '|', '|']);
    runTableAction(e, 'deleteRow');
    runTableAction(e, 'deleteRow');
    expect(runTableAction(e, 'deleteRow').done).toBe(false);
    valid(e);
  });

  it('each action is one undo step; the keys run them', () => {
    const e = withTable();
    const key = (k: string) => {
      const [, code] = k.split('Shift-');
      const event = new KeyboardEvent('keydown', { key: code!, altKey: true, shiftKey: true });
      e.view.someProp('handleKeyDown', (f) => f(e.view, event));
    };
    key('Alt-Shift-ArrowRight');
    expect(grid(e)[0]).toEqual(['a', 'b', '']);
    key('Alt-Shift-ArrowDown');
    expect(grid(e)).toHaveLength(3);
    e.commands.undo();
    expect(grid(e)).toHaveLength(2);
    e.commands.undo();
    expect(grid(e)[0]).toEqual(['a', 'b']);
    key('Alt-Shift-Delete');
    expect(grid(e)[0]).toEqual(['a']);
  });

  it('gives a pasted table (no GitBook data) its columns when one is added', () => {
    const e = open();
    e.commands.setContent('<table><tr><td>x</td><td>y</td></tr></table>');
    e.commands.setTextSelection(3);
    expect(runTableAction(e, 'addColumnAfter').done).toBe(true);
    expect(grid(e)).toEqual([['x', '', 'y']]);
    valid(e);
  });
});

describe('links', () => {
  /** The document's first paragraph's inlines, as [text, its link's ref or nothing]. */
  const runs = (e: Editor) =>
    docOf(e).nodes[0].nodes.flatMap((n: DocNode) =>
      n.object === 'inline' ? [[text(n), n.data.ref]] : text(n) ? [[text(n)]] : [],
    );
  const select = (e: Editor, word: string) => {
    let at = 0;
    e.state.doc.descendants((n, pos) => {
      if (!at && n.isText && n.text!.includes(word)) at = pos + n.text!.indexOf(word);
    });
    e.commands.setTextSelection({ from: at, to: at + word.length });
  };

  it('reads a typed web address: https added, javascript: and words refused', () => {
    expect(urlOf('example.com/docs')).toEqual({ url: 'https://example.com/docs' });
    expect(urlOf('http://a.io')).toEqual({ url: 'http://a.io' });
    expect(urlOf('mailto:ann@acme.io')).toEqual({ url: 'mailto:ann@acme.io' });
    expect(urlOf('javascript:alert(1)')).toHaveProperty('error');
    expect(urlOf('hello')).toHaveProperty('error');
    expect(urlOf(' ')).toEqual({ error: 'Type a web address, or pick a page.' });
  });

  it('links a selection to a URL, changes it to a page keeping its key, and removes it', () => {
    const e = open(doc(para('Read the guide now')));
    select(e, 'guide');
    const at = linkAt(e)!;
    expect(at.attrs).toBeUndefined();
    setLink(e, at, { kind: 'url', url: 'https://x.io' });
    expect(runs(e)).toEqual([['Read the '], ['guide', { kind: 'url', url: 'https://x.io' }], [' now']]);
    valid(e);
    // the cursor inside the link: the whole link is edited
    e.commands.setTextSelection(at.from + 2);
    const inside = linkAt(e)!;
    expect([inside.from, inside.to]).toEqual([at.from, at.to]);
    const key = docOf(e).nodes[0].nodes[1].key;
    setLink(e, inside, { kind: 'page', page: 'p1' });
    expect(runs(e)[1]).toEqual(['guide', { kind: 'page', page: 'p1' }]);
    expect(docOf(e).nodes[0].nodes[1].key).toBe(key);
    removeLink(e, linkAt(e)!);
    expect(runs(e)).toEqual([['Read the guide now']]);
    valid(e);
  });

  it('Ctrl-K on a selection or in a link opens the dialog (the key goes no further), elsewhere not', () => {
    const e = open(doc(para('Read the guide')));
    const opened: unknown[] = [];
    e.on('linkDialog' as never, ((at: unknown) => opened.push(at)) as never);
    const press = () => {
      const event = new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true });
      let stopped = false;
      event.stopPropagation = () => {
        stopped = true;
      };
      const handled = e.view.someProp('handleKeyDown', (f) => f(e.view, event));
      return { handled: !!handled, stopped };
    };
    e.commands.setTextSelection(3);
    expect(press()).toEqual({ handled: false, stopped: false });
    select(e, 'guide');
    expect(press()).toEqual({ handled: true, stopped: true });
    expect(opened).toHaveLength(1);
  });
});

describe('image width', () => {
  it('is whole pixels or a percentage in data.width: set, read, refused when not a width, removed when emptied', () => {
    const e = open();
    e.commands.insertContent(imagesNode('f1', 'A picture'));
    e.commands.setNodeSelection(1);
    const t = () => targetOf(e)!;
    expect(t().type).toBe('image');
    const width = fieldsOf(t()).find((f) => f.label === 'Width (px or %)')!;
    const image = () => docOf(e).nodes[0].nodes[0];
    expect(setField(e, t().pos, width, '240')).toBe(true);
    expect(image().data).toEqual({ ref: { kind: 'file', file: 'f1' }, alt: 'A picture', width: 240 });
    expect(valueOf(t(), width)).toBe('240');
    expect(e.view.dom.querySelector('.gb-image')).not.toBeNull();
    valid(e);
    expect(setField(e, t().pos, width, '-3')).toBe(false);
    expect(setField(e, t().pos, width, 'wide')).toBe(false);
    expect(image().data.width).toBe(240);
    setField(e, t().pos, width, '');
    expect(image().data).toEqual({ ref: { kind: 'file', file: 'f1' }, alt: 'A picture' });
    const px = { ...t(), attrs: { ...t().attrs, data: { width: { unit: 'px', value: 300 } } } };
    expect(valueOf(px, width)).toBe('300');
    // a percentage: GitBook's `{unit, value}`, drawn as the image's width attribute
    expect(setField(e, t().pos, width, '50%')).toBe(true);
    expect(image().data.width).toEqual({ unit: '%', value: 50 });
    expect(valueOf(t(), width)).toBe('50%');
    expect(e.view.dom.querySelector('.gb-image')).not.toBeNull();
    valid(e);
    expect(setField(e, t().pos, width, '120%')).toBe(false);
    expect(setField(e, t().pos, width, '3em')).toBe(false);
    expect(image().data.width).toEqual({ unit: '%', value: 50 });
  });

  it('reads a typed length: pixels as a number, a percentage as {unit, value}', () => {
    expect(lengthOf('300')).toBe(300);
    expect(lengthOf(' 300px ')).toBe(300);
    expect(lengthOf('120.6')).toBe(121);
    expect(lengthOf('25 %')).toEqual({ unit: '%', value: 25 });
    expect(lengthOf('100%')).toEqual({ unit: '%', value: 100 });
    for (const bad of ['', '0', '-3', 'wide', '0%', '101%', '3em', '1e3']) expect(lengthOf(bad)).toBeUndefined();
  });
});

describe('link targets', () => {
  it("lists a document's headings with the anchors the published page gives them", () => {
    const h = (type: string, text: string, extra: Record<string, unknown> = {}) => ({
      object: 'block',
      type,
      ...extra,
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    });
    const document = {
      object: 'document',
      nodes: [
        h('heading-1', 'Get started!'),
        h('paragraph', 'Not a heading'),
        { object: 'block', type: 'hint', nodes: [h('heading-2', 'Get started')] },
        h('heading-3', 'Élan & <b>'),
        h('heading-2', 'Custom', { meta: { id: 'my-anchor' } }),
        h('heading-2', ''),
      ],
    };
    expect(headingsOf(document)).toEqual([
      { anchor: 'get-started', title: 'Get started!' },
      { anchor: 'get-started-1', title: 'Get started' },
      { anchor: 'élan--b', title: 'Élan & <b>' },
      { anchor: 'my-anchor', title: 'Custom' },
    ]);
    expect(slugOf('API: v2 (beta)')).toBe('api-v2-beta');
    expect(headingsOf(undefined)).toEqual([]);
  });

  it('describes a file, an anchor and a space by name', () => {
    fileNames.set('f9', 'guide.pdf');
    pageTitles.set('p9', 'Prices');
    expect(describeRef({ kind: 'file', file: 'f9' })).toBe('the file guide.pdf');
    expect(describeRef({ kind: 'anchor', anchor: 'tea' })).toBe('the heading #tea');
    expect(describeRef({ kind: 'anchor', anchor: 'tea', page: 'p9' })).toBe('the heading #tea of the page Prices');
    spaceTitles.set('s1', 'Handbook');
    expect(describeRef({ kind: 'space', space: 's1' })).toBe('the space Handbook');
    expect(describeRef({ kind: 'user', user: 'u1' })).toBe('a user');
  });
});

describe('keys typed before the content is there', () => {
  const key = (k: string, mods: Partial<KeyboardEvent> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    isComposing: false,
    ...mods,
  });

  it('are kept, then typed into the editor as typing does (shortcuts, Enter, Backspace)', () => {
    const keys = new EarlyKeys();
    for (const k of ['Backspace', '#', ' ', 'H', 'i', 'Enter', 'x', 'y', 'Backspace', '<'])
      expect(keys.take(key(k))).toBe(true);
    expect(keys.take(key('k', { ctrlKey: true }))).toBe(false);
    expect(keys.take(key('ArrowLeft'))).toBe(false);
    expect(keys.take(key('a', { isComposing: true }))).toBe(false);
    // a Backspace after a kept character takes it back; the first one is typed into the page
    expect(keys.typed).toEqual(['Backspace', '#', ' ', 'H', 'i', 'Enter', 'x', '<']);
    const e = open(); // an empty page: one empty paragraph
    keys.flush(e);
    const nodes = docOf(e).nodes;
    expect(nodes.map((n: DocNode) => n.type)).toEqual(['heading-1', 'paragraph']);
    expect(e.getText({ blockSeparator: '|' })).toBe('Hi|x<');
    // from then on the editor takes the keys itself
    expect(keys.done).toBe(true);
    expect(keys.take(key('z'))).toBe(false);
  });

  it('are dropped by a read-only editor', () => {
    const keys = new EarlyKeys();
    keys.take(key('a'));
    const e = open(doc(para('Intro')));
    e.setEditable(false);
    keys.flush(e);
    expect(e.getText()).toBe('Intro');
    expect(keys.done).toBe(true);
  });
});
