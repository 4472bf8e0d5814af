// @vitest-environment happy-dom
import { JSONDocumentSchema } from '@quire/contracts';
import { documentToEditor, type DocNode, editorToDocument, opaqueCount } from '@quire/document/editor';
import { documentToMarkdown, markdownToDocument } from '@quire/document/model';
import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditor } from './create.ts';
import { runTableAction } from './table.ts';
import { fileUrls } from './uploads.ts';
import {
  addColumnOfType,
  deleteValueColumn,
  moveColumn,
  setAlignment,
  setCards,
  setType,
  setValue,
  setViewType,
  tableHere,
  typesFor,
} from './table-data.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

const para = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});
/** A grid: Name (text), Price (number), In stock (checkbox), Notes (text), Stars (rating), Site (link). */
const TABLE = {
  object: 'block',
  type: 'table',
  data: {
    view: { type: 'grid', columns: ['name', 'price', 'stock', 'notes', 'stars', 'site'], hideHeader: false },
    records: {
      r1: {
        orderIndex: 'a0',
        values: {
          name: 'f1',
          price: 3,
          stock: true,
          notes: 'f2',
          stars: 4,
          site: { kind: 'url', url: 'https://a.example' },
        },
      },
      r2: { orderIndex: 'a1', values: { name: 'f3', notes: 'f4' } },
    },
    definition: {
      name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
      price: { id: 'price', title: 'Price', type: 'number' },
      stock: { id: 'stock', title: 'In stock', type: 'checkbox' },
      notes: { id: 'notes', title: 'Notes', type: 'text', textAlignment: 'left' },
      stars: { id: 'stars', title: 'Stars', type: 'rating', max: 5 },
      site: { id: 'site', title: 'Site', type: 'content-ref' },
    },
  },
  fragments: [
    { object: 'fragment', fragment: 'f1', nodes: [para('Apple')] },
    { object: 'fragment', fragment: 'f2', nodes: [para('Red')] },
    { object: 'fragment', fragment: 'f3', nodes: [para('Pear')] },
    { object: 'fragment', fragment: 'f4', nodes: [para('Green')] },
  ],
  isVoid: true,
};
const DOC = { object: 'document', data: {}, nodes: [TABLE] };

/** The editor on the table, the cursor in the text cell of `row` and `column` (0-based, among the text cells). */
function open(row = 0, column = 0, document: unknown = DOC) {
  editor = createEditor({ element: window.document.createElement('div'), document });
  const e = editor;
  const cells: number[][] = [];
  e.state.doc.descendants((n, pos) => {
    if (n.type.name === 'tableRow') cells.push([]);
    if (n.type.name === 'tableCell') cells[cells.length - 1]!.push(pos);
  });
  e.view.dispatch(e.state.tr.setSelection(TextSelection.create(e.state.doc, cells[row]![column]! + 2)));
  return e;
}
const tableOf = (e: Editor) => (editorToDocument(e.getJSON() as never) as DocNode).nodes[0];
const valid = (e: Editor) =>
  expect(JSONDocumentSchema.safeParse(editorToDocument(e.getJSON() as never)).error?.issues ?? []).toEqual([]);
/** What the stored page (GitBook's markdown) gives back, as the editor opens it again: nothing kept opaque. */
function stored(e: Editor): DocNode {
  const back = markdownToDocument(documentToMarkdown(editorToDocument(e.getJSON() as never) as never)) as DocNode;
  expect(opaqueCount(documentToEditor(back))).toBe(0);
  return back.nodes[0];
}
const cellTexts = (e: Editor) =>
  [...e.view.dom.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent));

describe('a table with columns that are not text, in the editor', () => {
  it('opens editable (not opaque), its other columns drawn in their place with the header', () => {
    const e = open();
    expect(opaqueCount(e.getJSON() as never)).toBe(0);
    expect([...e.view.dom.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual([
      'Name',
      'Price',
      'In stock',
      'Notes',
      'Stars',
      'Site',
    ]);
    expect(cellTexts(e)).toEqual([
      ['Apple', '3', '☑', 'Red', '★★★★☆', 'https://a.example'],
      ['Pear', '', '', 'Green', '', ''],
    ]);
    expect(e.view.dom.querySelector('td.table-value-cell [role="img"]')?.getAttribute('aria-label')).toBe('Yes');
    expect(tableOf(e)).toEqual(TABLE);
  });

  it('sets and clears values of the cursor row; a row added in the editor gets its record', () => {
    const e = open(1, 0);
    expect(setValue(e, 'price', 2.5).done).toBe(true);
    expect(setValue(e, 'stock', false).done).toBe(true);
    expect(setValue(e, 'stars', 6)).toEqual({ done: false, message: 'A rating is a whole number from 0 to 5.' });
    expect(setValue(e, 'stars', 2).done).toBe(true);
    expect(setValue(e, 'site', { kind: 'url', url: 'https://b.example' }).done).toBe(true);
    expect(tableOf(e).data.records.r2.values).toEqual({
      name: 'f3',
      notes: 'f4',
      price: 2.5,
      stock: false,
      stars: 2,
      site: { kind: 'url', url: 'https://b.example' },
    });
    expect(cellTexts(e)[1]).toEqual(['Pear', '2.5', '☐', 'Green', '★★☆☆☆', 'https://b.example']);
    expect(setValue(e, 'price', undefined).done).toBe(true);
    expect(tableOf(e).data.records.r2.values.price).toBeUndefined();
    e.commands.undo();
    expect(tableOf(e).data.records.r2.values.price).toBe(2.5);
    // a new row: no record yet, one is made with the value
    runTableAction(e, 'addRowAfter');
    e.view.dispatch(e.state.tr.setSelection(TextSelection.near(e.state.doc.resolve(e.state.selection.from))));
    const here = tableHere(e.state)!;
    expect(here.row).toBe(1);
    const next = e.state.doc.resolve(here.pos + 1 + here.node.child(0).nodeSize + here.node.child(1).nodeSize + 3);
    e.view.dispatch(e.state.tr.setSelection(TextSelection.near(next)));
    expect(tableHere(e.state)!.record).toBeNull();
    expect(setValue(e, 'price', 7).done).toBe(true);
    const t = tableOf(e);
    const rows = Object.values(t.data.records as Record<string, DocNode>).sort((a, b) =>
      a.orderIndex < b.orderIndex ? -1 : 1,
    );
    expect(rows.map((r) => r.values.price)).toEqual([3, 2.5, 7]);
    valid(e);
    // what the stored page keeps: the values, the columns' types
    const back = stored(e);
    const backRows = Object.values(back.data.records as Record<string, DocNode>).sort((a, b) =>
      a.orderIndex < b.orderIndex ? -1 : 1,
    );
    expect(backRows.map((r) => r.values.c2)).toEqual([3, 2.5, 7]);
    expect(Object.values(back.data.definition).map((d: any) => d.type)).toEqual([
      'text',
      'number',
      'checkbox',
      'text',
      'rating',
      'content-ref',
    ]);
  });

  it('moves a column: view, definition and the text cells, the cursor staying in its cell', () => {
    const e = open(1, 0);
    expect(moveColumn(e, 'name', -1)).toEqual({ done: false, message: 'This is the first column.' });
    expect(moveColumn(e, 'name', 1).message).toBe('Name moved right.');
    expect(tableOf(e).data.view.columns).toEqual(['price', 'name', 'stock', 'notes', 'stars', 'site']);
    // two text columns change places: the cells do too
    expect(moveColumn(e, 'notes', -1).done).toBe(true);
    expect(moveColumn(e, 'notes', -1).done).toBe(true);
    const t = tableOf(e);
    expect(t.data.view.columns).toEqual(['price', 'notes', 'name', 'stock', 'stars', 'site']);
    expect(Object.keys(t.data.definition)).toEqual(t.data.view.columns);
    expect(cellTexts(e)).toEqual([
      ['3', 'Red', 'Apple', '☑', '★★★★☆', 'https://a.example'],
      ['', 'Green', 'Pear', '', '', ''],
    ]);
    expect(tableHere(e.state)).toMatchObject({ row: 1, column: 'name' });
    valid(e);
    // the moved table opens again as it is, and the stored page keeps the order
    expect(editorToDocument(documentToEditor({ object: 'document', data: {}, nodes: [t] }))).toEqual({
      object: 'document',
      data: {},
      nodes: [t],
    });
    expect(Object.values(stored(e).data.definition).map((d: any) => d.title)).toEqual([
      'Price',
      'Notes',
      'Name',
      'In stock',
      'Stars',
      'Site',
    ]);
    // each move is one undo step
    e.commands.undo();
    expect(tableOf(e).data.view.columns).toEqual(['price', 'name', 'notes', 'stock', 'stars', 'site']);
  });

  it('aligns a text column, in the data and in the editor', () => {
    const e = open(0, 1);
    expect(setAlignment(e, 'notes', 'right').done).toBe(true);
    expect(tableOf(e).data.definition.notes.textAlignment).toBe('right');
    expect(e.view.dom.querySelectorAll('tbody td.align-right')).toHaveLength(2);
    expect(e.view.dom.querySelector('thead th.align-right')?.textContent).toBe('Notes');
    expect(setAlignment(e, 'price', 'center').done).toBe(false);
    expect(stored(e).data.definition.c4.textAlignment).toBe('right');
  });

  it('changes a type only where no value is lost; adds and deletes columns of other types', () => {
    const e = open();
    expect(typesFor(tableOf(e).data, 'name')).toEqual([]);
    expect(typesFor(tableOf(e).data, 'price')).toEqual(['rating']);
    expect(typesFor(tableOf(e).data, 'stock')).toEqual([]);
    expect(setType(e, 'stock', 'number').done).toBe(false);
    expect(setType(e, 'price', 'rating').done).toBe(true);
    expect(tableOf(e).data.definition.price).toEqual({ id: 'price', title: 'Price', type: 'rating', max: 5 });
    expect(setType(e, 'price', 'number').done).toBe(true);
    expect(addColumnOfType(e, 'checkbox', 'Done').done).toBe(true);
    const id = Object.keys(tableOf(e).data.definition).at(-1)!;
    expect(tableOf(e).data.view.columns.at(-1)).toBe(id);
    expect(typesFor(tableOf(e).data, id)).toEqual(['number', 'rating', 'content-ref']);
    expect(setValue(e, id, true).done).toBe(true);
    expect(cellTexts(e)[0]!.at(-1)).toBe('☑');
    expect(deleteValueColumn(e, 'name').done).toBe(false);
    expect(deleteValueColumn(e, id).done).toBe(true);
    expect(tableOf(e).data.definition[id]).toBeUndefined();
    expect(tableOf(e).data.records.r1.values[id]).toBeUndefined();
    valid(e);
  });

  it('switches grid and cards with what each view requires; the cards get a link column', () => {
    const e = open();
    expect(setViewType(e, 'cards').done).toBe(true);
    expect(tableOf(e).data.view).toEqual({
      type: 'cards',
      columns: ['name', 'price', 'stock', 'notes', 'stars', 'site'],
      cardSize: 'medium',
      targetDefinition: 'site',
    });
    valid(e);
    expect(setCards(e, 'cardSize', 'large').done).toBe(true);
    expect(setCards(e, 'hideColumnTitle', true).done).toBe(true);
    expect(setCards(e, 'targetDefinition', undefined).done).toBe(true);
    expect(tableOf(e).data.view).toEqual({
      type: 'cards',
      columns: ['name', 'price', 'stock', 'notes', 'stars', 'site'],
      cardSize: 'large',
      hideColumnTitle: true,
    });
    const back = stored(e);
    expect(back.data.view).toMatchObject({ type: 'cards', cardSize: 'large', hideColumnTitle: true });
    expect(setViewType(e, 'grid').done).toBe(true);
    expect(tableOf(e).data.view).toEqual({
      type: 'grid',
      columns: ['name', 'price', 'stock', 'notes', 'stars', 'site'],
      hideHeader: true,
    });
    valid(e);
  });

  it('draws a cards view as cards: a list, each card its fields under their titles and its link; the document kept', () => {
    const CARDS = structuredClone(TABLE);
    CARDS.data.view = {
      type: 'cards',
      columns: ['name', 'price', 'stock', 'notes', 'stars', 'site'],
      cardSize: 'large',
      targetDefinition: 'site',
      coverDefinition: 'pic',
    } as never;
    // a cover: a files column's first file, drawn when the space's file is known
    (CARDS.data.definition as Record<string, unknown>).pic = { id: 'pic', title: 'Picture', type: 'files' };
    (CARDS.data.records.r1.values as Record<string, unknown>).pic = ['file1'];
    fileUrls.set('file1', 'https://quire.example/v1/downloads/file1?sig=1');
    const e = open(1, 1, { object: 'document', data: {}, nodes: [CARDS] });
    const wrapper = e.view.dom.querySelector('.tableWrapper')!;
    expect(wrapper.classList.contains('table-cards-large')).toBe(true);
    expect(wrapper.querySelector('tbody')?.getAttribute('role')).toBe('list');
    expect((wrapper.querySelector('thead') as HTMLElement).hidden).toBe(true);
    const cards = [...wrapper.querySelectorAll('tbody tr')];
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Card 1: Apple', 'Card 2: Pear']);
    // the fields (named, titled) in their order; the link column is where the card goes, not a field
    const fields = (c: Element) =>
      [...c.querySelectorAll('[role="group"]')].map((f) => [f.getAttribute('aria-label'), f.textContent]);
    expect(fields(cards[0]!)).toEqual([
      ['Name', 'Apple'],
      ['Price', '3'],
      ['In stock', '☑'],
      ['Notes', 'Red'],
      ['Stars', '★★★★☆'],
    ]);
    expect(cards[0]!.querySelector('.table-card-cover img')?.getAttribute('src')).toBe('/v1/downloads/file1?sig=1');
    expect((cards[1]!.querySelector('.table-card-cover') as HTMLElement).hidden).toBe(true);
    expect(cards[0]!.querySelector('td[data-title]')?.getAttribute('data-title')).toBe('Name');
    expect(cards[0]!.querySelector('.table-card-link')?.textContent).toBe('Links to https://a.example');
    expect((cards[1]!.querySelector('.table-card-link') as HTMLElement).hidden).toBe(true);
    // a card added with Tab from its last field, and removed: the document stays one the API accepts
    const tab = new KeyboardEvent('keydown', { key: 'Tab' });
    expect(e.view.someProp('handleKeyDown', (f) => f(e.view, tab))).toBe(true);
    expect(e.view.dom.querySelectorAll('tbody tr').length).toBe(3);
    expect(runTableAction(e, 'deleteRow')).toEqual({ done: true, message: 'Card deleted.' });
    expect(tableOf(e)).toEqual(CARDS);
    valid(e);
  });

  it('keeps the drawn cells in place while text is typed before, after and in a table', () => {
    const CARDS = structuredClone(TABLE);
    CARDS.data.view = { ...CARDS.data.view, type: 'cards', targetDefinition: 'site' } as never;
    const e = open(0, 0, { object: 'document', data: {}, nodes: [para('Before'), CARDS, para('After')] });
    const names = () => [...e.view.dom.querySelectorAll('tbody tr')].map((c) => c.getAttribute('aria-label'));
    const type = (pos: number, text: string) => e.view.dispatch(e.state.tr.insertText(text, pos));
    // typing outside the table (a keystroke does not recompute the tables' cells): the cells move with the text
    type(1, 'Just ');
    type(e.state.doc.content.size - 1, ' it');
    e.view.dispatch(e.state.tr.insert(0, e.state.schema.nodes.paragraph!.create()));
    expect(e.view.dom.firstElementChild?.textContent).toBe('');
    expect(e.view.dom.lastElementChild?.textContent).toBe('After it');
    expect(cellTexts(e)[0]).toEqual(['', 'Apple', '3', '☑', 'Red', '★★★★☆', 'Links to https://a.example']);
    expect(names()).toEqual(['Card 1: Apple', 'Card 2: Pear']);
    // typing in a card's first field: its name follows
    type(open0(e), 'Green ');
    expect(names()).toEqual(['Card 1: Green Apple', 'Card 2: Pear']);
    expect(cellTexts(e)[0]).toEqual(['', 'Green Apple', '3', '☑', 'Red', '★★★★☆', 'Links to https://a.example']);
    // the table deleted: no cell of it is left drawn
    let at = -1;
    e.state.doc.forEach((n, pos) => {
      if (n.type.name === 'table') at = pos;
    });
    e.view.dispatch(e.state.tr.delete(at, at + e.state.doc.nodeAt(at)!.nodeSize));
    expect(e.view.dom.querySelectorAll('td').length).toBe(0);
    expect(e.view.dom.textContent).toBe('Just BeforeAfter it');
  });
});

/** The start of the text of the table's first cell. */
function open0(e: Editor): number {
  let at = -1;
  e.state.doc.descendants((n, pos) => {
    if (at < 0 && n.type.name === 'tableCell') at = pos + 2;
    return at < 0;
  });
  return at;
}
