import { DomainError, type EntityManager } from '@quire/kit';
import { storedDocument } from '../modules/content/document-format.ts';
import {
  includedIds,
  inlineReusableContents,
  MAX_INCLUDE_DEPTH,
} from '../modules/reusable-content/reusable-content-documents.ts';
import { documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { reusableContentsOf, type RevisionTree } from '../modules/revisions/revision-tree.ts';
import {
  composedHash,
  diffIndexedPages,
  indexedPagesOf,
  indexedSectionsOf,
  type ComposedDocument,
  type IndexedPage,
} from '../modules/search/search-index.ts';
import { searchRepository } from '../modules/search/search.repository.ts';

/** Documents parsed and written per statement. */
const DOCUMENTS_PER_BATCH = 200;

export interface SearchDocumentIndexerProps {
  /** Hashes of documents pages are about to reference (known ones are only marked used). */
  hashes: readonly string[];
  /** The text search configuration (`QUIRE_SEARCH_CONFIG`). */
  config: string;
  /** The hashes among `hashes` that are pages' documents with the reusable contents they include (see `ComposedDocument`). */
  composed?: ReadonlyMap<string, ComposedDocument>;
  now?: Date;
}

/** The JSON document of a composed document: its source with the reusable contents it includes expanded in place. */
function composedDocument(composition: ComposedDocument, markdown: ReadonlyMap<string, string>) {
  const read = (hash: string) => {
    const text = markdown.get(hash);
    if (text === undefined) throw new Error(`document ${hash} is missing`);
    return storedDocument(hash, text);
  };
  const { spaceId, source, includes } = composition;
  return inlineReusableContents(read(source), spaceId, (id) => {
    const hash = includes.get(id);
    return hash ? read(hash) : undefined;
  });
}

/**
 * Indexes the documents of these hashes not indexed yet: each document's sections (read from its markdown with the
 * documents module) once per hash, whatever the number of pages and revisions sharing it. Returns how many it indexed.
 */
export async function searchDocumentIndexer(
  em: EntityManager,
  { hashes, config, composed, now = new Date() }: SearchDocumentIndexerProps,
): Promise<number> {
  const missing = await searchRepository.touchDocuments(em, hashes, now);
  for (let i = 0; i < missing.length; i += DOCUMENTS_PER_BATCH) {
    const chunk = missing.slice(i, i + DOCUMENTS_PER_BATCH);
    const sources = chunk.flatMap((hash) => {
      const c = composed?.get(hash);
      return c ? [c.source, ...[...c.includes.values()].filter((h): h is string => h !== null)] : [hash];
    });
    const markdown = await documentRepository.getMany(em, sources);
    const documents = chunk.map((hash) => {
      const c = composed?.get(hash);
      if (c) return { hash, ...indexedSectionsOf('', undefined, composedDocument(c, markdown)) };
      const text = markdown.get(hash);
      if (text === undefined) throw new Error(`document ${hash} is missing`);
      return { hash, ...indexedSectionsOf(text, undefined, storedDocument(hash, text)) };
    });
    await searchRepository.insertDocuments(em, config, documents, now);
  }
  return missing.length;
}

export interface SpaceSearchIndexerProps {
  spaceId: string;
  config: string;
  now?: Date;
}

export interface SpaceSearchIndexOutcome {
  /** The revision the index now reflects (null: the space does not exist). */
  revision: string | null;
  /** Pages written and dropped (0 and 0 when the index was already there). */
  written: number;
  deleted: number;
}

/** The tree the index of a space reflects (null when none, or when it cannot be read: everything is rewritten). */
async function indexedTree(
  em: EntityManager,
  spaceId: string,
  revisionId: string | null,
): Promise<RevisionTree | null> {
  if (revisionId === null) return null;
  try {
    return await revisionRepository.treeInSpace(em, spaceId, revisionId);
  } catch (err) {
    if (err instanceof DomainError && err.reason === 'not_found') return null;
    throw err;
  }
}

/** The pages of a tree as the index keeps them, and the composed documents among their hashes. */
interface IndexedTree {
  pages: Map<string, IndexedPage>;
  composed: Map<string, ComposedDocument>;
}

const indexedTrees = new WeakMap<RevisionTree, IndexedTree>();

/**
 * The pages of a tree search indexes, a page whose document includes reusable contents of its space indexed with
 * them (under the hash of its `ComposedDocument`): only documents with an include tag are parsed, and only in a tree
 * that has reusable contents. Computed once per (immutable, cached) tree.
 */
async function indexedTreeOf(em: EntityManager, spaceId: string, tree: RevisionTree): Promise<IndexedTree> {
  const known = indexedTrees.get(tree);
  if (known) return known;
  const plain = indexedPagesOf(tree);
  const records = reusableContentsOf(tree);
  const out: IndexedTree = { pages: plain, composed: new Map() };
  if (records.size) {
    const hashes = [...plain.values()].flatMap((p) => (p.documentHash ? [p.documentHash] : []));
    const including = await searchRepository.documentsWithIncludes(em, hashes);
    if (including.length) {
      const own = [...records.values()].flatMap((r) => (r.documentHash ? [r.documentHash] : []));
      const markdown = await documentRepository.getMany(em, [...including, ...own]);
      const parsed = (hash: string) => storedDocument(hash, markdown.get(hash) ?? '');
      const bySource = new Map<string, string>();
      for (const source of including) {
        const includes = new Map<string, string | null>();
        let wanted = includedIds(parsed(source), spaceId);
        for (let depth = 0; wanted.size && depth <= MAX_INCLUDE_DEPTH; depth++) {
          const next = new Set<string>();
          for (const id of wanted) {
            const record = records.get(id);
            if (!record || includes.has(id)) continue;
            includes.set(id, record.documentHash);
            if (record.documentHash) includedIds(parsed(record.documentHash), spaceId, next);
          }
          wanted = next;
        }
        if (!includes.size) continue;
        const hash = composedHash(source, includes);
        bySource.set(source, hash);
        out.composed.set(hash, { spaceId, source, includes });
      }
      if (bySource.size) {
        out.pages = new Map(
          [...plain].map(([id, page]) => {
            const hash = page.documentHash && bySource.get(page.documentHash);
            return [id, hash ? { ...page, documentHash: hash } : page];
          }),
        );
      }
    }
  }
  indexedTrees.set(tree, out);
  return out;
}

/**
 * Brings the search index of a space to its live revision: the pages that differ between the revision the index
 * reflects and the live one are rewritten (new documents indexed first), the pages gone are dropped, the others are
 * not touched — a page including a reusable content that changed is rewritten with its new text. Idempotent and safe
 * to run concurrently (the space's index state is locked until commit); a space never indexed is indexed whole.
 */
export async function spaceSearchIndexer(
  em: EntityManager,
  { spaceId, config, now = new Date() }: SpaceSearchIndexerProps,
): Promise<SpaceSearchIndexOutcome> {
  const state = await searchRepository.lockSpace(em, spaceId, config, now);
  if (!state) return { revision: null, written: 0, deleted: 0 };
  if (state.indexedRevision === state.liveRevision) return { revision: state.liveRevision, written: 0, deleted: 0 };
  // One after the other: reads in a transaction flush its unit of work first, which cannot run twice at once.
  const before = await indexedTree(em, spaceId, state.indexedRevision);
  const after = await revisionRepository.treeInSpace(em, spaceId, state.liveRevision);
  const previous = before ? (await indexedTreeOf(em, spaceId, before)).pages : new Map<string, IndexedPage>();
  const next = await indexedTreeOf(em, spaceId, after);
  const { upserts, deletes } = diffIndexedPages(previous, next.pages);
  const hashes = upserts.flatMap((p) => (p.documentHash ? [p.documentHash] : []));
  await searchDocumentIndexer(em, { hashes, config, composed: next.composed, now });
  // Without the previous tree nothing says which rows are stale: all go.
  await searchRepository.deletePages(em, spaceId, before ? deletes : 'all');
  await searchRepository.upsertPages(em, spaceId, config, upserts);
  // A large change (a first index, a big merge) leaves the planner's statistics behind: brought up to date here.
  await searchRepository.analyzeAfter(em, spaceId, { pages: upserts.length, documents: new Set(hashes).size });
  await searchRepository.setIndexedRevision(em, spaceId, state.liveRevision, now);
  return { revision: state.liveRevision, written: upserts.length, deleted: before ? deletes.length : 0 };
}

export interface SearchIndexMaintainerProps {
  config: string;
  /** Indexed documents no page has used since this date are dropped. */
  unusedBefore: Date;
  limit: number;
}

/**
 * Upkeep of the index: re-makes its tsvectors when the text search configuration changed, and drops up to `limit`
 * indexed documents no page uses any more (old versions of pages). Returns what it did.
 */
export async function searchIndexMaintainer(
  em: EntityManager,
  props: SearchIndexMaintainerProps,
): Promise<{ reconfigured: boolean; dropped: number }> {
  const reconfigured = await searchRepository.reconfigure(em, props.config);
  const dropped = await searchRepository.deleteUnusedDocuments(em, props.unusedBefore, props.limit);
  return { reconfigured, dropped };
}
