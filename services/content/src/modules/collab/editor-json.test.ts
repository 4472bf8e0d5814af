import { readdirSync, readFileSync } from 'node:fs';
import { getSchema } from '@tiptap/core';
import { prosemirrorToYXmlFragment, yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { documentToEditor, editorToDocument, sameJSON } from '@quire/document/editor';
import { gitbookExtensions } from '@quire/app/src/editor/schema.ts';
import { markdownToDocument } from '@quire/document/model';
import { COLLAB_FIELD, replaceYDocContent, yDocToEditor } from './editor-json.ts';

const FIXTURES = new URL('../../../../../packages/document/src/markdown/fixtures/', import.meta.url);
const schema = getSchema(gitbookExtensions());

/**
 * The server writes and reads live documents without the editor's schema; the browser binds them with TipTap's
 * y-tiptap and that schema. Both must agree on every block GitBook has (the document fixtures).
 */
describe('live documents: the server and the editor read each other', () => {
  for (const file of readdirSync(FIXTURES).filter((f) => /\.(md|txt)$/.test(f))) {
    const doc = markdownToDocument(readFileSync(new URL(file, FIXTURES), 'utf8'));

    it(`${file}: the server's seed reads back as the same document`, () => {
      const ydoc = new Y.Doc();
      replaceYDocContent(ydoc, documentToEditor(doc), null);
      expect(sameJSON(editorToDocument(yDocToEditor(ydoc)), doc)).toBe(true);
    });

    it(`${file}: the editor binds to the server's seed, holding the same blocks`, () => {
      const ydoc = new Y.Doc();
      replaceYDocContent(ydoc, documentToEditor(doc), null);
      const node = yXmlFragmentToProseMirrorRootNode(ydoc.getXmlFragment(COLLAB_FIELD), schema);
      node.check();
      expect(sameJSON(editorToDocument(node.toJSON()).nodes, doc.nodes)).toBe(true);
    });

    it(`${file}: what the editor writes, the server reads back as the same blocks`, () => {
      const ydoc = new Y.Doc();
      prosemirrorToYXmlFragment(schema.nodeFromJSON(documentToEditor(doc)), ydoc.getXmlFragment(COLLAB_FIELD));
      expect(sameJSON(editorToDocument(yDocToEditor(ydoc)).nodes, doc.nodes)).toBe(true);
    });
  }
});
