import { DomainError, type EntityManager, type JobDefinition, type Logger, type ServiceDeps } from '@quire/kit';
import { searchDocumentIndexer, searchIndexMaintainer, spaceSearchIndexer } from '../commands/search-indexer.ts';
import type { ContentConfig } from '../env.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { indexedPagesOf } from '../modules/search/search-index.ts';
import { searchRepository } from '../modules/search/search.repository.ts';

export const SEARCH_INDEX_JOB = 'content-search-index';

/** Indexed documents unused for this long are dropped (a sync that skipped indexing one marks it used first). */
export const UNUSED_DOCUMENT_GRACE_MS = 24 * 3_600_000;
/** Documents indexed per transaction when a whole space is indexed. */
const DOCUMENTS_PER_TRANSACTION = 1_000;

export interface SearchIndexRun {
  reconfigured: boolean;
  /** Spaces brought to their live revision. */
  spaces: string[];
  /** Indexed documents dropped (no page uses them). */
  dropped: number;
}

/**
 * The upkeep of the search index, at start and every `QUIRE_SEARCH_SCAN_EVERY_MS`: checks the text search
 * configuration, re-makes the index when it changed, indexes every live space whose index is missing or behind its
 * live revision (spaces that existed before search, a `space.content-updated` not consumed), each space's new
 * documents first in transactions of their own (a large space does not hold one long transaction), then its pages in
 * one; and drops the indexed documents no page has used for a day.
 */
export async function runSearchIndex(
  deps: { em: EntityManager; config: string; log?: Logger },
  now = new Date(),
): Promise<SearchIndexRun> {
  const { em, config } = deps;
  if (!(await searchRepository.configExists(em.fork(), config))) {
    throw new Error(`QUIRE_SEARCH_CONFIG: PostgreSQL has no text search configuration "${config}" (see \\dF in psql)`);
  }
  const upkeep = await em.fork().transactional((tx) =>
    searchIndexMaintainer(tx, {
      config,
      unusedBefore: new Date(now.getTime() - UNUSED_DOCUMENT_GRACE_MS),
      limit: 10_000,
    }),
  );
  if (upkeep.reconfigured) deps.log?.info({ config }, 'search index re-made with a new text search configuration');
  const done = new Set<string>();
  for (;;) {
    const stale = (await searchRepository.staleSpaces(em.fork(), 100)).filter((s) => !done.has(s.id));
    if (!stale.length) break;
    for (const space of stale) {
      done.add(space.id);
      let tree;
      try {
        tree = await revisionRepository.treeInSpace(em.fork(), space.id, space.revisionId);
      } catch (err) {
        // Purged (or moved on) meanwhile: the next run sees it as it is then.
        if (err instanceof DomainError && err.reason === 'not_found') continue;
        throw err;
      }
      const hashes = [
        ...new Set([...indexedPagesOf(tree).values()].flatMap((p) => (p.documentHash ? [p.documentHash] : []))),
      ];
      for (let i = 0; i < hashes.length; i += DOCUMENTS_PER_TRANSACTION) {
        await em
          .fork()
          .transactional((tx) =>
            searchDocumentIndexer(tx, { hashes: hashes.slice(i, i + DOCUMENTS_PER_TRANSACTION), config }),
          );
      }
      await em.fork().transactional((tx) => spaceSearchIndexer(tx, { spaceId: space.id, config }));
    }
  }
  return { reconfigured: upkeep.reconfigured, spaces: [...done], dropped: upkeep.dropped };
}

export function searchIndexJob(deps: ServiceDeps<ContentConfig>): JobDefinition {
  return {
    name: SEARCH_INDEX_JOB,
    everyMs: deps.config.QUIRE_SEARCH_SCAN_EVERY_MS,
    maxAttempts: 5,
    timeoutMs: 120_000,
    run: async () => {
      const run = await runSearchIndex({
        em: deps.orm.em.fork(),
        config: deps.config.QUIRE_SEARCH_CONFIG,
        log: deps.log,
      });
      if (run.spaces.length || run.dropped)
        deps.log.info({ spaces: run.spaces.length, dropped: run.dropped }, 'search index brought up to date');
    },
  };
}
