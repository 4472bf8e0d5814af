// The one place the editor's tests find GitBook documents made from markdown: the document package's fixtures and
// its markdown -> document converter. Test-only: the app's bundle never imports this file.
export { markdownToDocument } from '@quire/document/model';
export const FIXTURES_DIR = new URL('../../../packages/document/src/markdown/fixtures/', import.meta.url);
