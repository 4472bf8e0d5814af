// The one place the editor's tests find GitBook documents made from markdown: the document fixtures and the
// markdown -> document converter. Both are moving from services/content into packages/document (@quire/document):
// repoint these two lines then. Test-only: the app's bundle never imports this file.
export { markdownToDocument } from '../../../services/content/src/modules/documents/index.ts';
export const FIXTURES_DIR = new URL('../../../services/content/src/modules/documents/fixtures/', import.meta.url);
