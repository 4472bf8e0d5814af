import { documentToEditor, editorToDocument } from '@quire/document/editor';
import type { EditorConversion, GitBookDocument } from './editor-json.ts';

/**
 * The app editor's own conversion (`@quire/document/editor`, pure, no DOM): the server seeds and reads live
 * documents exactly as the browser's editor maps them.
 */
export const editorConversion: EditorConversion = {
  documentToEditor: (doc) => documentToEditor(doc),
  editorToDocument: (json) => editorToDocument(json) as unknown as GitBookDocument,
};
