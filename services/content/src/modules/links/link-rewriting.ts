import { documentToMarkdown, markdownToDocument, refFromUrl } from '@quire/document/model';
import { isLinkRef, type LinkRef } from './link-extraction.ts';

/**
 * Rewriting the links of a document walks its JSON form: only references are ever rewritten (links, images,
 * mentions, content-refs, buttons, files, card targets), never text, so a URL written in a code block, in
 * inline code or in a sentence stays as it is.
 */

/** A copy of `node` with every link reference replaced by what `rewrite` answers for it (undefined: kept). */
export function rewriteRefs<T>(node: T, rewrite: (ref: LinkRef) => LinkRef | undefined): T {
  if (Array.isArray(node)) return node.map((child: unknown) => rewriteRefs(child, rewrite)) as T;
  if (node === null || typeof node !== 'object') return node;
  if (isLinkRef(node)) return (rewrite(node) ?? node) as T;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    out[key] = value !== null && typeof value === 'object' ? rewriteRefs(value, rewrite) : value;
  return out as T;
}

/** How the references a batch of content changes writes (`./<ref>.md`, `./<ref>`) resolve, once it knows the ids. */
export interface BatchRefs {
  /** The page inserted in the batch under `ref` (undefined: not one). */
  page(ref: string): string | undefined;
  /** The file inserted in the batch under `ref` (undefined: not one). */
  file(ref: string): string | undefined;
}

const BATCH_REF = /^(?:\.\/)?([^\s#"?]+?)(\.md)?(#.*)?$/;

/**
 * The reference a relative URL of a batch stands for: `./<ref>.md`, `<ref>.md` or `./<ref>` naming a page of the
 * batch is a link to that page (`/pages/<id>`, with its `#anchor`); `./<ref>` naming a file of the batch is that
 * file (`gitbook-file:<id>`). Anything else (URLs, references to nothing of the batch) is left alone.
 */
export function batchRefOf(url: string, refs: BatchRefs): LinkRef | undefined {
  const match = BATCH_REF.exec(url.trim());
  if (!match || url.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  const [, name, md, anchor] = match as unknown as [string, string, string | undefined, string | undefined];
  const page = refs.page(name);
  if (page !== undefined) return refFromUrl(`/pages/${page}${anchor ?? ''}`) as LinkRef;
  const file = md || anchor ? undefined : refs.file(name);
  return file === undefined ? undefined : { kind: 'file', file };
}

/**
 * The markdown of a page written in a batch, its references to the batch's pages and files resolved (see
 * `batchRefOf`) and the result in the stored (normalised) form.
 */
export function resolveBatchRefs(markdown: string, refs: BatchRefs): string {
  let resolved = false;
  const document = rewriteRefs(markdownToDocument(markdown), (ref) => {
    const to = ref.kind === 'url' ? batchRefOf(ref.url, refs) : undefined;
    resolved ||= to !== undefined;
    return to;
  });
  // Nothing resolved: the document is what `markdown` reads as, which spares the writer reading it again.
  return documentToMarkdown(document, resolved ? undefined : markdown);
}
