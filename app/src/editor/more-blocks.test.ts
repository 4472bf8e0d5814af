// @vitest-environment happy-dom
import { JSONDocumentSchema } from '@quire/contracts';
import { type DocNode, documentToEditor, editorToDocument } from '@quire/document/editor';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { matching } from './blocks.ts';
import { buttonClasses } from './button-view.ts';
import { createEditor } from './create.ts';
import {
  buttonAction,
  buttonNode,
  iconNameOf,
  integrationBlockNode,
  openapiOperationNode,
  openapiSchemasNode,
  openapiWebhookNode,
  reusableContentNode,
  schemasOf,
  setBlockData,
  webhooksOf,
} from './ref-blocks.ts';
import { fieldsOf, SETTINGS, setField, targetOf, valueOf } from './settings.ts';
import { drawingNode } from './uploads.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

const open = (nodes: unknown[]) => {
  editor = createEditor({
    element: window.document.createElement('div'),
    document: { object: 'document', data: {}, nodes },
  });
  return editor;
};
const docOf = (e: Editor) => editorToDocument(e.getJSON()) as DocNode;
const valid = (doc: DocNode) => JSONDocumentSchema.safeParse(doc).error?.issues ?? [];
const para = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  key: 'p0',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

const drawing = {
  object: 'block',
  type: 'drawing',
  key: 'd1',
  isVoid: true,
  data: { ref: { kind: 'file', file: 'f1' } },
};
const integration = {
  object: 'block',
  type: 'integration',
  key: 'i1',
  isVoid: true,
  data: { integration: 'mermaid', block: 'diagram', props: { content: 'graph TD; A-->B' }, action: { action: '@x' } },
  meta: { spaceId: 'sp' },
};
const swagger = {
  object: 'block',
  type: 'swagger',
  key: 's1',
  isVoid: true,
  data: { ref: { kind: 'url', url: 'https://a.example/api.yaml' }, path: '/pets', method: 'get', expanded: true },
  meta: { id: 'pets' },
};
const schemas = {
  object: 'block',
  type: 'openapi-schemas',
  key: 'os1',
  isVoid: true,
  data: { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet'] },
};
const webhook = {
  object: 'block',
  type: 'openapi-webhook',
  key: 'ow1',
  isVoid: true,
  data: { ref: { kind: 'openapi', spec: 'pets' }, name: 'newPet', method: 'post' },
  meta: { id: 'new-pet' },
};

describe('what a specification offers', () => {
  it('lists the schemas (components.schemas) and the webhooks (name and method) in their order', () => {
    const entry = {
      openapi: '3.1.0',
      components: { schemas: { Pet: {}, Order: {} } },
      webhooks: {
        newPet: { post: { summary: 'A pet was added' } },
        gone: { delete: { operationId: 'petGone' }, x: {} },
      },
    };
    expect(schemasOf(entry)).toEqual(['Pet', 'Order']);
    expect(webhooksOf(entry)).toEqual([
      { name: 'newPet', method: 'post', summary: 'A pet was added' },
      { name: 'gone', method: 'delete', summary: 'petGone' },
    ]);
    expect(schemasOf({ components: { schemas: [] } })).toEqual([]);
    expect(webhooksOf(null)).toEqual([]);
    expect(schemasOf(undefined)).toEqual([]);
  });
});

describe('the `/` menu', () => {
  it('offers OpenAPI operations, reusable content and buttons (each completed in a dialog)', () => {
    expect(matching('openapi').map((c) => [c.id, c.action])).toEqual([
      ['openapi', 'openapi'],
      ['openapi-schemas', 'openapi-schemas'],
      ['openapi-webhook', 'openapi-webhook'],
    ]);
    expect(matching('drawing').map((c) => c.action)).toEqual(['drawing']);
    expect(matching('reusable').map((c) => c.action)).toEqual(['reusable']);
    expect(matching('button').map((c) => c.action)).toEqual(['button']);
    expect(matching('integration').map((c) => [c.label, c.action])).toEqual([['Integration block…', 'integration']]);
  });

  it('inserts blocks and a button GitBook accepts, written back as they were', () => {
    const e = open([para('Go: ')]);
    e.chain()
      .insertContentAt(5, buttonNode('Sign <up>', 'secondary', { kind: 'url', url: 'https://a.example/' }))
      .run();
    e.chain()
      .insertContentAt(e.state.doc.content.size, openapiOperationNode('pets', { path: '/pets', method: 'get' }))
      .run();
    e.chain().insertContentAt(e.state.doc.content.size, reusableContentNode('rc1')).run();
    const out = docOf(e);
    expect(valid(out)).toEqual([]);
    const types = out.nodes.map((n: DocNode) => n.type);
    expect(types.slice(1, 3)).toEqual(['openapi-operation', 'reusable-content']);
    expect(out.nodes[1]).toMatchObject({
      isVoid: true,
      data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'get' },
    });
    expect(out.nodes[2].data).toEqual({ ref: { kind: 'reusable-content', reusableContent: 'rc1' } });
    const button = out.nodes[0].nodes.find((n: DocNode) => n.type === 'button');
    expect(button).toMatchObject({
      object: 'inline',
      isVoid: true,
      data: { label: 'Sign <up>', kind: 'secondary', ref: { kind: 'url', url: 'https://a.example/' } },
    });
    expect(editorToDocument(documentToEditor(out as never) as never)).toEqual(out);
  });

  it('inserts a drawing, OpenAPI schemas, an OpenAPI webhook and an integration block GitBook accepts, written back as they were', () => {
    const e = open([para('Intro')]);
    for (const node of [
      drawingNode('f9'),
      openapiSchemasNode('pets', ['Pet', 'Tag'], true),
      openapiSchemasNode('pets', ['Error'], false),
      openapiWebhookNode('pets', { name: 'newPet', method: 'post' }),
      integrationBlockNode('charts', 'chart'),
    ])
      e.chain().insertContentAt(e.state.doc.content.size, node).run();
    const out = docOf(e);
    expect(valid(out)).toEqual([]);
    expect(out.nodes.slice(1).map((n: DocNode) => [n.type, n.isVoid, n.data])).toEqual([
      ['drawing', true, { ref: { kind: 'file', file: 'f9' } }],
      ['openapi-schemas', true, { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet', 'Tag'] }],
      ['openapi-schemas', true, { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Error'], grouped: false }],
      ['openapi-webhook', true, { ref: { kind: 'openapi', spec: 'pets' }, name: 'newPet', method: 'post' }],
      ['integration', true, { integration: 'charts', block: 'chart', props: {} }],
    ]);
    expect(editorToDocument(documentToEditor(out as never) as never)).toEqual(out);
  });
});

describe('a button in the editor', () => {
  it("is drawn with the site's classes for its kind and size, and its icon before its label", () => {
    expect(buttonClasses({})).toBe('button');
    expect(buttonClasses({ kind: 'secondary', size: 'large' })).toBe('button button-secondary button-large');
    expect(buttonClasses({ kind: 'primary', size: 'huge' })).toBe('button');
    const e = open([para('Go: ')]);
    e.chain()
      .insertContentAt(5, {
        type: 'button',
        attrs: {
          data: {
            label: 'Read <me>',
            kind: 'secondary',
            size: 'small',
            icon: 'fa-solid fa-book-open',
            ref: { kind: 'url', url: 'https://a.example/' },
          },
          rest: { isVoid: true },
        },
      })
      .run();
    const drawn = e.view.dom.querySelector<HTMLElement>('[data-gb-type="button"]')!;
    expect(drawn.className).toBe('gb-inline gb-button button button-secondary button-small');
    expect(drawn.textContent).toBe('Read <me>');
    const icon = drawn.firstElementChild as HTMLElement;
    expect([icon.className, icon.getAttribute('aria-hidden')]).toEqual(['inline-icon', 'true']);
    expect(icon.style.getPropertyValue('--icon')).toBe('url(/_quire/icons/book-open.svg)');
    // its settings changed: drawn again, the icon removed
    setBlockData(e, 5, { size: 'large', icon: undefined });
    const again = e.view.dom.querySelector<HTMLElement>('[data-gb-type="button"]')!;
    expect(again.className).toBe('gb-inline gb-button button button-secondary button-large');
    expect(again.querySelector('.inline-icon')).toBeNull();
  });
});

describe("a button's size, icon and action", () => {
  it('takes a Font Awesome name as GitBook stores it, and refuses what cannot be one', () => {
    expect(iconNameOf(' Fa-Solid fa-Book-Open ')).toEqual({ name: 'book-open' });
    expect(iconNameOf('rocket')).toEqual({ name: 'rocket' });
    expect(iconNameOf('../etc/passwd')).toHaveProperty('error');
    expect(iconNameOf('a b!')).toHaveProperty('error');
    expect(iconNameOf('x'.repeat(51))).toHaveProperty('error');
  });

  it('makes the action GitBook models (an empty query left out, a slug kept)', () => {
    expect(buttonAction('search', '')).toEqual({ action: 'search' });
    expect(buttonAction('ask', 'How?')).toEqual({ action: 'ask', query: 'How?' });
    expect(buttonAction('select', '')).toEqual({ action: 'select', slug: '' });
  });

  it('writes size, icon and an action instead of the target; the document stays one GitBook accepts', () => {
    const doc = [
      {
        ...para('Go: '),
        nodes: [
          ...para('Go: ').nodes,
          {
            object: 'inline',
            type: 'button',
            key: 'b1',
            isVoid: true,
            data: { label: 'Go', kind: 'primary', ref: { kind: 'url', url: 'https://a.example/' } },
          },
          { object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] },
        ],
      },
    ];
    const e = open(doc);
    const pos = 5;
    expect(e.state.doc.nodeAt(pos)?.type.name).toBe('button');
    setBlockData(e, pos, { size: 'large', icon: 'rocket' });
    setBlockData(e, pos, { action: buttonAction('search', 'install'), ref: undefined });
    const out = docOf(e);
    expect(out.nodes[0].nodes[1]).toEqual({
      object: 'inline',
      type: 'button',
      key: 'b1',
      isVoid: true,
      data: {
        label: 'Go',
        kind: 'primary',
        size: 'large',
        icon: 'rocket',
        action: { action: 'search', query: 'install' },
      },
    });
    expect(valid(out)).toEqual([]);
    // the size back to the default and the icon removed: the fields go
    setBlockData(e, pos, { size: undefined, icon: undefined });
    expect(docOf(e).nodes[0].nodes[1].data).toEqual({
      label: 'Go',
      kind: 'primary',
      action: { action: 'search', query: 'install' },
    });
    e.commands.undo();
    expect(docOf(e).nodes[0].nodes[1].data.size).toBe('large');
  });
});

describe('the settings of drawings, integrations, OpenAPI schemas and webhooks, and the older OpenAPI block', () => {
  it('are found at each selected block, and the page written back unchanged is the same document', () => {
    const e = open([drawing, integration, swagger, schemas, webhook]);
    const types: string[] = [];
    e.state.doc.forEach((_n, offset) => {
      e.commands.setNodeSelection(offset);
      types.push(targetOf(e)!.type);
    });
    expect(types).toEqual(['drawing', 'integration', 'swagger', 'openapiSchemas', 'openapiWebhook']);
    expect(types.map((t) => SETTINGS[t]!.title)).toEqual([
      'Drawing',
      'Integration block',
      'OpenAPI block (older)',
      'OpenAPI schemas',
      'OpenAPI webhook',
    ]);
    const out = docOf(e);
    expect(out.nodes).toEqual([drawing, integration, swagger, schemas, webhook]);
  });

  it("write a drawing's file, an integration's props, a swagger block's source and fields, schemas, a webhook", () => {
    const e = open([drawing, integration, swagger, schemas, webhook]);
    const at: number[] = [];
    e.state.doc.forEach((_n, offset) => {
      at.push(offset);
    });
    setBlockData(e, at[0]!, { ref: { kind: 'file', file: 'f2' } });
    setBlockData(e, at[1]!, { props: { content: 'graph LR; B-->C' } });
    e.commands.setNodeSelection(at[1]!);
    const full = fieldsOf(targetOf(e)!).find((f) => f.name === 'fullWidth')!;
    setField(e, at[1]!, full, true);
    setBlockData(e, at[2]!, { ref: { kind: 'file', file: 'spec1' } });
    e.commands.setNodeSelection(at[2]!);
    const t = targetOf(e)!;
    const [path, method, expanded] = fieldsOf(t);
    expect([valueOf(t, path!), valueOf(t, method!), valueOf(t, expanded!)]).toEqual(['/pets', 'get', true]);
    // emptied, the path stays (GitBook requires it); unchecked, "expanded" goes
    setField(e, at[2]!, path!, '');
    setField(e, at[2]!, expanded!, false);
    setBlockData(e, at[3]!, { ref: { kind: 'openapi', spec: 'store' }, schemas: ['Order', 'Pet'], grouped: false });
    setBlockData(e, at[4]!, { name: 'gone', method: 'delete' });
    const out = docOf(e);
    expect(out.nodes.map((n: DocNode) => n.data)).toEqual([
      { ref: { kind: 'file', file: 'f2' } },
      { ...integration.data, props: { content: 'graph LR; B-->C' }, fullWidth: true },
      { ref: { kind: 'file', file: 'spec1' }, path: '', method: 'get' },
      { ref: { kind: 'openapi', spec: 'store' }, schemas: ['Order', 'Pet'], grouped: false },
      { ref: { kind: 'openapi', spec: 'pets' }, name: 'gone', method: 'delete' },
    ]);
    // keys, meta and isVoid kept
    expect(out.nodes.map((n: DocNode) => [n.key, n.meta, n.isVoid])).toEqual([
      ['d1', undefined, true],
      ['i1', { spaceId: 'sp' }, true],
      ['s1', { id: 'pets' }, true],
      ['os1', undefined, true],
      ['ow1', { id: 'new-pet' }, true],
    ]);
    expect(valid(out)).toEqual([]);
    expect(editorToDocument(documentToEditor(out as never) as never)).toEqual(out);
  });
});

describe('the settings of an icon inline', () => {
  it('writes its colour (none removes it) and its name; the inline keeps its key', () => {
    const e = open([
      {
        ...para('Star: '),
        nodes: [
          ...para('Star: ').nodes,
          { object: 'inline', type: 'icon', key: 'ic1', isVoid: true, data: { icon: 'star' } },
          { object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] },
        ],
      },
    ]);
    const pos = 7;
    e.commands.setNodeSelection(pos);
    const target = targetOf(e)!;
    expect(target.type).toBe('icon');
    const [color] = fieldsOf(target);
    expect(valueOf(target, color!)).toBe('');
    setField(e, pos, color!, '$primary');
    setBlockData(e, pos, { icon: 'rocket' });
    const icon = () => docOf(e).nodes[0].nodes[1];
    expect(icon()).toEqual({
      object: 'inline',
      type: 'icon',
      key: 'ic1',
      isVoid: true,
      data: { icon: 'rocket', color: '$primary' },
    });
    expect(valid(docOf(e))).toEqual([]);
    setField(e, pos, color!, '');
    expect(icon().data).toEqual({ icon: 'rocket' });
  });
});
