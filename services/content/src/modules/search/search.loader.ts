import { DEFAULT_PAGE_SIZE } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';
import { organizationContentPolicy } from '../access/organization.policy.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { spacePolicy, visibleSpaces } from '../spaces/space.policy.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import { decodeCursor, encodeCursor, prefixWord } from './search-query.ts';
import { searchRepository, type PageHit, type SectionHit } from './search.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor' | 'config'>;

export interface SearchInput {
  query: string;
  page?: string | undefined;
  limit?: number | undefined;
}

/** A page of search results: the ranked pages asked for, each with its matching sections. */
export interface SearchResults {
  /** Pages ranked (capped: see `QUIRE_SEARCH_CANDIDATES`). */
  count: number;
  hits: { page: PageHit; sections: SectionHit[] }[];
  next?: { page: string };
}

/** The space to search: live, and the caller may `search` it (404 / 403 otherwise). */
export async function loadSearchableSpace(ctx: Ctx, spaceId: string): Promise<ISpace> {
  return (await loadSpaceFor(ctx, spaceId, 'search')).space;
}

/** The live spaces of an organization the caller may search (every space it can read): 404 for non-members. */
export async function loadSearchableSpaces(ctx: Ctx, organizationId: string): Promise<ISpace[]> {
  organizationContentPolicy.assert(ctx.actor, { organizationId }, 'search');
  const tree = await collectionRepository.tree(ctx.em, organizationId);
  const spaces = await spaceRepository.findInScope(ctx.em, organizationId, visibleSpaces(ctx.actor, organizationId, tree));
  return spaces.filter((s) => spacePolicy.allows(ctx.actor, tree.factsOf(s), 'search'));
}

/**
 * Searches the live content of these spaces: the query parsed once, the pages ranked (candidates capped), the page
 * of results asked for (keyset on score, space and page), then the matching sections of those pages with excerpts.
 */
export async function searchSpaces(ctx: Ctx, spaces: readonly ISpace[], input: SearchInput): Promise<SearchResults> {
  const after = input.page === undefined ? undefined : decodeCursor(input.page);
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  if (!spaces.length) return { count: 0, hits: [] };
  const config = ctx.config.QUIRE_SEARCH_CONFIG;
  const tsquery = await searchRepository.parse(ctx.em, config, input.query, prefixWord(input.query));
  if (!tsquery) return { count: 0, hits: [] };
  const { total, hits } = await searchRepository.rankedPages(ctx.em, { spaceIds: spaces.map((s) => s.id), tsquery, cap: ctx.config.QUIRE_SEARCH_CANDIDATES, after, limit });
  const shown = hits.slice(0, limit);
  const hashes = [...new Set(shown.flatMap((h) => (h.documentHash ? [h.documentHash] : [])))];
  const sections = await searchRepository.matchingSections(ctx.em, { config, tsquery, hashes });
  const byDocument = Map.groupBy(sections, (s) => s.documentHash);
  const last = shown.at(-1);
  return {
    count: total,
    hits: shown.map((page) => ({ page, sections: (page.documentHash && byDocument.get(page.documentHash)) || [] })),
    ...(hits.length > limit && last ? { next: { page: encodeCursor({ score: last.score, spaceId: last.spaceId, pageId: last.pageId }) } } : {}),
  };
}
