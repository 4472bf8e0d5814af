// @vitest-environment happy-dom
import { JSONDocumentSchema } from '@quire/contracts';
import { type DocNode, documentToEditor, editorToDocument } from '@quire/document/editor';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditor } from './create.ts';
import { operationsOf, setOpenAPIOperation, setReusableContent } from './ref-blocks.ts';
import { setButtonTarget } from './ButtonSettings.tsx';
import { fieldsOf, SETTINGS, setField, targetOf, valueOf } from './settings.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

const api = {
  object: 'block',
  type: 'openapi-operation',
  key: 'op1',
  isVoid: true,
  data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'get' },
  meta: { id: 'list-pets' },
};
const include = (space?: string) => ({
  object: 'block',
  type: 'reusable-content',
  key: 'rc1',
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent: 'old', ...(space ? { space } : {}) } },
});
const open = (nodes: unknown[]) => {
  editor = createEditor({
    element: window.document.createElement('div'),
    document: { object: 'document', data: {}, nodes },
  });
  return editor;
};
const docOf = (e: Editor) => editorToDocument(e.getJSON()) as DocNode;

describe('the operations of an OpenAPI specification', () => {
  it('lists each path and method of the entry document in its order, with its summary or operationId', () => {
    const entry = {
      openapi: '3.0.0',
      paths: {
        '/pets': { parameters: [], get: { summary: 'List pets' }, post: { operationId: 'addPet' } },
        '/pets/{id}': { delete: {}, 'x-other': {} },
        '/elsewhere': { $ref: 'other.yaml#/paths/x' },
      },
    };
    expect(operationsOf(entry)).toEqual([
      { path: '/pets', method: 'get', summary: 'List pets' },
      { path: '/pets', method: 'post', summary: 'addPet' },
      { path: '/pets/{id}', method: 'delete' },
    ]);
    expect(operationsOf({ swagger: '2.0' })).toEqual([]);
    expect(operationsOf(null)).toEqual([]);
  });
});

describe('the settings of an OpenAPI operation block and a reusable content block', () => {
  it('are found at the selected block', () => {
    const e = open([api, include()]);
    e.commands.setNodeSelection(0);
    expect(targetOf(e)?.type).toBe('openapiOperation');
    expect(SETTINGS[targetOf(e)!.type]!.title).toBe('OpenAPI operation');
    e.commands.setNodeSelection(1);
    expect(targetOf(e)?.type).toBe('reusableContent');
  });

  it('write the specification and the operation, the block keeping its key and anchor; one undo step', () => {
    const e = open([api]);
    expect(setOpenAPIOperation(e, 0, 'store')).toBe(true);
    // another specification, no operation yet: the path and method stay (GitBook requires them)
    expect(docOf(e).nodes[0].data).toEqual({ ref: { kind: 'openapi', spec: 'store' }, path: '/pets', method: 'get' });
    setOpenAPIOperation(e, 0, 'store', { path: '/orders/{id}', method: 'delete' });
    const out = docOf(e);
    expect(out.nodes[0]).toEqual({
      ...api,
      data: { ref: { kind: 'openapi', spec: 'store' }, path: '/orders/{id}', method: 'delete' },
    });
    expect(JSONDocumentSchema.safeParse(out).error?.issues ?? []).toEqual([]);
    // the document read back into an editor is the same document
    expect(editorToDocument(documentToEditor(out as never) as never)).toEqual(out);
    e.commands.undo();
    expect(docOf(e).nodes[0].data.path).toBe('/pets');
  });

  it("write the reusable content; a reference naming a space is given this space's", () => {
    const e = open([include(), include('other')]);
    setReusableContent(e, 0, 'new', 'sp1');
    setReusableContent(e, 1, 'new', 'sp1');
    const out = docOf(e);
    expect(out.nodes.map((n: DocNode) => n.data)).toEqual([
      { ref: { kind: 'reusable-content', reusableContent: 'new' } },
      { ref: { kind: 'reusable-content', reusableContent: 'new', space: 'sp1' } },
    ]);
    expect(out.nodes[0].key).toBe('rc1');
    expect(JSONDocumentSchema.safeParse(out).error?.issues ?? []).toEqual([]);
  });
});

describe('the settings of a button', () => {
  const button = (data: Record<string, unknown>) => ({
    object: 'block',
    type: 'paragraph',
    key: 'p1',
    data: {},
    nodes: [
      { object: 'text', leaves: [{ object: 'leaf', text: 'Go: ', marks: [] }] },
      { object: 'inline', type: 'button', key: 'b1', isVoid: true, data },
      { object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] },
    ],
  });
  const buttonOf = (e: Editor) => docOf(e).nodes[0].nodes.find((n: DocNode) => n.type === 'button');

  it('change its label and style (emptied, the label stays: GitBook requires it) and its target', () => {
    const e = open([button({ label: 'Start', kind: 'primary', ref: { kind: 'url', url: 'https://a.example/' } })]);
    e.commands.setNodeSelection(5);
    const target = targetOf(e)!;
    expect(target.type).toBe('button');
    const [label, kind] = fieldsOf(target);
    expect([valueOf(target, label!), valueOf(target, kind!)]).toEqual(['Start', 'primary']);
    setField(e, target.pos, kind!, 'secondary');
    // still selected: its settings stay open while the label is typed
    expect(targetOf(e)?.type).toBe('button');
    setField(e, target.pos, label!, '');
    expect(buttonOf(e).data).toEqual({ label: '', kind: 'secondary', ref: { kind: 'url', url: 'https://a.example/' } });
    setField(e, target.pos, label!, 'Get started');
    setButtonTarget(e, target.pos, { kind: 'page', page: 'pg1' });
    const out = docOf(e);
    expect(buttonOf(e)).toEqual({
      object: 'inline',
      type: 'button',
      key: 'b1',
      isVoid: true,
      data: { label: 'Get started', kind: 'secondary', ref: { kind: 'page', page: 'pg1' } },
    });
    expect(JSONDocumentSchema.safeParse(out).error?.issues ?? []).toEqual([]);
  });

  it("given a target, a button doing an action does not do it any more (GitBook's button has one or the other)", () => {
    const e = open([button({ label: 'Search', kind: 'primary', action: { action: 'search', query: 'x' } })]);
    setButtonTarget(e, 5, { kind: 'url', url: 'https://b.example/' });
    expect(buttonOf(e).data).toEqual({
      label: 'Search',
      kind: 'primary',
      ref: { kind: 'url', url: 'https://b.example/' },
    });
  });
});
