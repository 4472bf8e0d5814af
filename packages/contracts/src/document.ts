/**
 * The document's schema alone (`@quire/contracts/document`): GitBook's JSON document, its blocks, inlines, marks and
 * references, with zod as its only dependency, for what a browser loads (the document package) without the whole
 * contract (every operation, the OpenAPI builder).
 */
export * from './schemas/document-refs.ts';
export * from './schemas/document.ts';
