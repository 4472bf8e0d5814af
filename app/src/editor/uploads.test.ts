// @vitest-environment happy-dom
import { JSONDocumentSchema } from '@quire/contracts';
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type DocNode, editorToDocument } from '@quire/document/editor';
import { BLOCKS } from './blocks.ts';
import { createEditor } from './create.ts';
import {
  contentRefNode,
  downloadSrc,
  fileNames,
  fileNode,
  fileUrls,
  filterPages,
  flattenPages,
  imagesNode,
  MAX_FILE_BYTES,
  pageLinkData,
  toBase64,
  tooLarge,
} from './uploads.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());
const open = () => {
  editor = createEditor({
    element: window.document.createElement('div'),
    document: { object: 'document', data: {}, nodes: [] },
  });
  return editor;
};
const docOf = (e: Editor) => editorToDocument(e.getJSON()) as DocNode;
const accepted = (doc: unknown) => expect(JSONDocumentSchema.safeParse(doc).error?.issues ?? []).toEqual([]);

describe('images, files and page references in the document the API gets', () => {
  it('an uploaded image is an images block holding an image of the file', () => {
    const e = open();
    e.chain().focus().insertContent(imagesNode('file-1', 'diagram')).run();
    const doc = docOf(e);
    const images = doc.nodes.find((n: DocNode) => n.type === 'images');
    expect(images).toMatchObject({ object: 'block', type: 'images' });
    expect(images.nodes).toEqual([
      expect.objectContaining({
        object: 'block',
        type: 'image',
        isVoid: true,
        data: { ref: { kind: 'file', file: 'file-1' }, alt: 'diagram' },
      }),
    ]);
    accepted(doc);
  });

  it('an image whose download URL is known shows the picture in the editor', () => {
    fileUrls.set('file-2', 'https://quire.test/v1/downloads/x.png');
    const e = open();
    e.chain().focus().insertContent(imagesNode('file-2', 'dot')).run();
    const img = e.view.dom.querySelector('.gb-image img');
    expect(img?.getAttribute('src')).toBe('https://quire.test/v1/downloads/x.png');
    expect(img?.getAttribute('alt')).toBe('dot');
    fileUrls.delete('file-2');
  });

  it('an uploaded file is a file block referencing it', () => {
    const e = open();
    e.chain().focus().insertContent(fileNode('file-3')).run();
    const doc = docOf(e);
    expect(doc.nodes.find((n: DocNode) => n.type === 'file')).toMatchObject({
      object: 'block',
      type: 'file',
      isVoid: true,
      data: { ref: { kind: 'file', file: 'file-3' } },
    });
    expect(e.view.dom.textContent).toContain('File: file-3');
    accepted(doc);
    // once the file's name is known (the change request's files, read when the editor opens), it shows it
    fileNames.set('file-4', 'notes.txt');
    e.chain().focus().insertContent(fileNode('file-4')).run();
    expect(e.view.dom.textContent).toContain('File: notes.txt');
    fileNames.delete('file-4');
  });

  it('a page reference is a content-ref block; a page link is a link inline with a page ref', () => {
    const e = open();
    e.chain().focus().insertContent('See the guide here.').run();
    e.chain()
      .setTextSelection({ from: 9, to: 14 })
      .setMark('link', { data: pageLinkData('page-9') })
      .run();
    e.chain().focus('end').insertContent(contentRefNode('page-8')).run();
    const doc = docOf(e);
    const inlines = doc.nodes[0].nodes as DocNode[];
    const link = inlines.find((n) => n.object === 'inline');
    expect(link).toMatchObject({ object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'page-9' } } });
    expect(link!.nodes[0].leaves[0].text).toBe('guide');
    expect(doc.nodes.find((n: DocNode) => n.type === 'content-ref')).toMatchObject({
      type: 'content-ref',
      isVoid: true,
      data: { ref: { kind: 'page', page: 'page-8' } },
    });
    accepted(doc);
  });

  it('the / menu offers Image, File, Page reference and the picked blocks, completed by the screen', () => {
    expect(BLOCKS.filter((b) => b.action).map((b) => [b.label, b.action])).toEqual([
      ['Image', 'image'],
      ['File', 'file'],
      ['Drawing', 'drawing'],
      ['Page reference', 'page'],
      ['OpenAPI operation', 'openapi'],
      ['OpenAPI schemas', 'openapi-schemas'],
      ['OpenAPI webhook', 'openapi-webhook'],
      ['Reusable content', 'reusable'],
      ['Integration block…', 'integration'],
      ['Button', 'button'],
    ]);
  });
});

describe('upload limits and encoding', () => {
  it('refuses a file over 1 MiB with a clear message, takes one of exactly 1 MiB', () => {
    expect(tooLarge({ name: 'big.png', size: MAX_FILE_BYTES + 1 })).toBe(
      'big.png is 1.0 MiB: a file can be at most 1 MiB.',
    );
    expect(tooLarge({ name: 'ok.png', size: MAX_FILE_BYTES })).toBeUndefined();
  });

  it('loads a download link of this API on the app’s own origin, any other URL as it is', () => {
    expect(downloadSrc('http://quire.test/v1/downloads/abc?x=1')).toBe('/v1/downloads/abc?x=1');
    expect(downloadSrc('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
  });

  it('encodes the bytes as base64', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    const b64 = await toBase64(new Blob([bytes]));
    expect(Buffer.from(b64, 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('the page picker’s list', () => {
  const tree = [
    {
      id: 'a',
      title: 'Guides',
      type: 'document',
      path: 'guides',
      pages: [{ id: 'b', title: 'Setup', type: 'document', path: 'guides/setup' }],
    },
    { id: 'g', title: 'Group', type: 'group', pages: [{ id: 'c', title: 'FAQ', type: 'document', path: 'faq' }] },
    { id: 'l', title: 'Elsewhere', type: 'link' },
  ];
  it('lists the documents depth first, groups and links left out', () => {
    expect(flattenPages(tree).map((p) => p.title)).toEqual(['Guides', 'Setup', 'FAQ']);
  });
  it('filters by title or path', () => {
    const pages = flattenPages(tree);
    expect(filterPages(pages, 'set').map((p) => p.id)).toEqual(['b']);
    expect(filterPages(pages, 'GUIDES/').map((p) => p.id)).toEqual(['b']);
    expect(filterPages(pages, '  ').length).toBe(3);
  });
});
