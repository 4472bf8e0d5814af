import { DomainError, type EntityManager } from '@quire/kit';
import { storedDocument } from '../modules/content/document-format.ts';
import { documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import type { RevisionTree } from '../modules/revisions/revision-tree.ts';
import { diffIndexedPages, indexedPagesOf, indexedSectionsOf } from '../modules/search/search-index.ts';
import { searchRepository } from '../modules/search/search.repository.ts';

/** Documents parsed and written per statement. */
const DOCUMENTS_PER_BATCH = 200;

export interface SearchDocumentIndexerProps {
  /** Hashes of documents pages are about to reference (known ones are only marked used). */
  hashes: readonly string[];
  /** The text search configuration (`QUIRE_SEARCH_CONFIG`). */
  config: string;
  now?: Date;
}

/**
 * Indexes the documents of these hashes not indexed yet: each document's sections (read from its markdown with the
 * documents module) once per hash, whatever the number of pages and revisions sharing it. Returns how many it indexed.
 */
export async function searchDocumentIndexer(
  em: EntityManager,
  { hashes, config, now = new Date() }: SearchDocumentIndexerProps,
): Promise<number> {
  const missing = await searchRepository.touchDocuments(em, hashes, now);
  for (let i = 0; i < missing.length; i += DOCUMENTS_PER_BATCH) {
    const chunk = missing.slice(i, i + DOCUMENTS_PER_BATCH);
    const markdown = await documentRepository.getMany(em, chunk);
    const documents = chunk.map((hash) => {
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

/**
 * Brings the search index of a space to its live revision: the pages that differ between the revision the index
 * reflects and the live one are rewritten (new documents indexed first), the pages gone are dropped, the others are
 * not touched. Idempotent and safe to run concurrently (the space's index state is locked until commit); a space
 * never indexed is indexed whole.
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
  const { upserts, deletes } = diffIndexedPages(before ? indexedPagesOf(before) : new Map(), indexedPagesOf(after));
  const hashes = upserts.flatMap((p) => (p.documentHash ? [p.documentHash] : []));
  await searchDocumentIndexer(em, { hashes, config, now });
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
