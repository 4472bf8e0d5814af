import { DEFAULT_PAGE_SIZE } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';
import { organizationContentPolicy } from '../access/organization.policy.ts';
import { CollectionTree } from '../collections/collection-tree.ts';
import { grantRepository } from '../permissions/grant.repository.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { spacePolicy } from '../spaces/space.policy.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import { decodeSearchCursor, encodeSearchCursor, prefixWord } from './search-query.ts';
import { searchRepository, type PageHit } from './search.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor' | 'config'>;

/** A space searched: what the results show of it. */
export type SearchedSpace = Pick<ISpace, 'id' | 'title' | 'organizationId'>;

export interface SearchInput {
  query: string;
  page?: string | undefined;
  limit?: number | undefined;
}

/** A page of search results: the ranked pages asked for, each with its matching sections. */
export interface SearchResults {
  /** Pages ranked (capped: see `QUIRE_SEARCH_CANDIDATES`). */
  count: number;
  hits: PageHit[];
  next?: { page: string };
}

/** The space to search: live, and the caller may `search` it (404 / 403 otherwise). */
export async function loadSearchableSpace(ctx: Ctx, spaceId: string): Promise<ISpace> {
  return (await loadSpaceFor(ctx, spaceId, 'search')).space;
}

/** The live spaces of an organization the caller may search (every space it can read, by the space policy): 404 for non-members. */
export async function loadSearchableSpaces(ctx: Ctx, organizationId: string): Promise<SearchedSpace[]> {
  organizationContentPolicy.assert(ctx.actor, { organizationId }, 'search');
  const { spaces, collections } = await spaceRepository.liveWithCollections(ctx.em, organizationId);
  const tree = new CollectionTree(collections, await grantRepository.ofOrganization(ctx.em, organizationId));
  return spaces.filter((s) => spacePolicy.allows(ctx.actor, tree.factsOf(s), 'search'));
}

/**
 * Searches the live content of these spaces, in one statement: the query parsed, the pages ranked (candidates capped),
 * the page of results asked for (keyset on score, space and page) with their matching sections and excerpts.
 */
export async function searchSpaces(
  ctx: Ctx,
  spaces: readonly SearchedSpace[],
  input: SearchInput,
): Promise<SearchResults> {
  const after = input.page === undefined ? undefined : decodeSearchCursor(input.page);
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  if (!spaces.length) return { count: 0, hits: [] };
  const { total, hits } = await searchRepository.rankedPages(ctx.em, {
    config: ctx.config.QUIRE_SEARCH_CONFIG,
    query: input.query,
    prefix: prefixWord(input.query),
    spaceIds: spaces.map((s) => s.id),
    cap: ctx.config.QUIRE_SEARCH_CANDIDATES,
    after,
    limit,
  });
  const shown = hits.slice(0, limit);
  const last = shown.at(-1);
  return {
    count: total,
    hits: shown,
    ...(hits.length > limit && last
      ? { next: { page: encodeSearchCursor({ score: last.score, spaceId: last.spaceId, pageId: last.pageId }) } }
      : {}),
  };
}
