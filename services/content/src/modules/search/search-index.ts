import { createHash } from 'node:crypto';
import type { JSONDocument } from '@quire/contracts';
import { markdownToDocument, sectionsOf } from '@quire/document/model';
import { treeIndex, type RevisionTree } from '../revisions/revision-tree.ts';

/** What the index keeps of a page of a space's live revision (the `search_page` row, but its tsvectors). */
export interface IndexedPage {
  pageId: string;
  title: string;
  path: string;
  description: string;
  /** Titles of the parent pages, top level first. */
  ancestors: string[];
  documentHash: string | null;
}

const projections = new WeakMap<RevisionTree['pages'], Map<string, IndexedPage>>();

/**
 * The pages of a revision search finds: document pages (groups and links have no content, links no path), except
 * those marked `noIndex` ("not indexed by search"); hidden pages are found. Computed once per (immutable) tree.
 */
export function indexedPagesOf(tree: Pick<RevisionTree, 'pages'>): Map<string, IndexedPage> {
  const known = projections.get(tree.pages);
  if (known) return known;
  const { paths } = treeIndex(tree.pages);
  const out = new Map<string, IndexedPage>();
  for (const page of tree.pages.values()) {
    if (page.kind !== 'document' || page.noIndex) continue;
    const ancestors: string[] = [];
    const seen = new Set<string>([page.id]);
    for (let parent = page.parentId; parent !== null && !seen.has(parent); ) {
      const p = tree.pages.get(parent);
      if (!p) break;
      seen.add(parent);
      ancestors.unshift(p.title);
      parent = p.parentId;
    }
    out.set(page.id, {
      pageId: page.id,
      title: page.title,
      path: paths.get(page.id) ?? page.slug,
      description: page.description ?? '',
      ancestors,
      documentHash: page.documentHash,
    });
  }
  projections.set(tree.pages, out);
  return out;
}

const samePage = (a: IndexedPage, b: IndexedPage) =>
  a.title === b.title &&
  a.path === b.path &&
  a.description === b.description &&
  a.documentHash === b.documentHash &&
  a.ancestors.length === b.ancestors.length &&
  a.ancestors.every((t, i) => t === b.ancestors[i]);

/**
 * What moving the index of a space from one revision to another takes: the pages to write (new, or whose title,
 * path, description, ancestors or document changed — a renamed or moved parent changes its descendants' paths) and
 * the pages to drop. Unchanged pages are not touched.
 */
export function diffIndexedPages(
  before: ReadonlyMap<string, IndexedPage>,
  after: ReadonlyMap<string, IndexedPage>,
): { upserts: IndexedPage[]; deletes: string[] } {
  const upserts: IndexedPage[] = [];
  for (const [id, page] of after) {
    const old = before.get(id);
    if (!old || !samePage(old, page)) upserts.push(page);
  }
  const deletes = [...before.keys()].filter((id) => !after.has(id));
  return { upserts, deletes };
}

/** A section of a document as the index keeps it (`search_section`). */
export interface IndexedSection {
  position: number;
  /** The heading's anchor; '' for the text before the first heading. */
  anchor: string;
  /** The heading's text; '' for the text before the first heading. */
  heading: string;
  body: string;
}

/**
 * Most characters of a document the index keeps (headings and text added up; the rest is cut): a tsvector holds at
 * most 1 MB, which text this long cannot reach whatever its words.
 */
export const MAX_INDEXED_CHARACTERS = 200_000;

/**
 * The sections of a document's markdown to index, cut at `MAX_INDEXED_CHARACTERS` (`truncated` says so); from its
 * JSON document when the caller has it.
 */
export function indexedSectionsOf(
  markdown: string,
  max = MAX_INDEXED_CHARACTERS,
  document: JSONDocument = markdownToDocument(markdown),
): { sections: IndexedSection[]; truncated: boolean } {
  const sections: IndexedSection[] = [];
  let left = max;
  let truncated = false;
  for (const { heading, text } of sectionsOf(document)) {
    if (left <= 0) {
      truncated = true;
      break;
    }
    const title = (heading?.title ?? '').slice(0, left);
    left -= title.length;
    const body = text.slice(0, Math.max(0, left));
    left -= body.length;
    if (title.length < (heading?.title.length ?? 0) || body.length < text.length) truncated = true;
    sections.push({ position: sections.length, anchor: heading?.id ?? '', heading: title, body });
  }
  return { sections, truncated };
}

/**
 * A page's document as search indexes it when it includes reusable contents of its space: its own document (`source`,
 * a content hash) with each reusable content it includes, at any depth, expanded in place (`includes`: the id of each
 * and its document's hash, null when empty). Indexed under `composedHash`, so a new version of any of them is a new
 * document to index, and the pages including it are rewritten.
 */
export interface ComposedDocument {
  spaceId: string;
  source: string;
  includes: ReadonlyMap<string, string | null>;
}

/** The hash a composed document is indexed under: of its source and of the id and hash of each included document. */
export function composedHash(source: string, includes: ReadonlyMap<string, string | null>): string {
  const parts = [...includes].map(([id, hash]) => `${id}\u0000${hash ?? ''}`).sort();
  return createHash('sha256')
    .update(['search-composed', source, ...parts].join('\n'))
    .digest('hex');
}
