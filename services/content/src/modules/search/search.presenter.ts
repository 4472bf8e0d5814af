import type { List, SearchPageResult, SearchSectionResult, SearchSpaceResult } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { SearchedSpace, SearchResults } from './search.loader.ts';
import type { PageHit, SectionHit } from './search.repository.ts';

interface Ctx {
  urls: PublicUrls;
}

type SpaceRef = Pick<SearchedSpace, 'id' | 'organizationId'>;

function presentSection(page: PageHit, pageUrl: string, s: SectionHit): SearchSectionResult {
  const anchor = s.anchor;
  return {
    id: anchor || page.pageId,
    title: s.heading || page.title,
    path: anchor ? `${page.path}#${anchor}` : page.path,
    score: s.score,
    body: s.excerpt,
    urls: { app: anchor ? `${pageUrl}#${encodeURIComponent(anchor)}` : pageUrl },
  };
}

export function presentPageHit(ctx: Ctx, space: SpaceRef, page: PageHit): SearchPageResult {
  const url = ctx.urls.page(`/o/${space.organizationId}/s/${space.id}/${page.path}`);
  return {
    id: page.pageId,
    title: page.title,
    description: page.description,
    path: page.path,
    score: page.score,
    rank: page.rank,
    resultType: page.titleMatch ? 'page' : 'section',
    ancestors: page.ancestors.map((title) => ({ title })),
    sections: page.sections.map((s) => presentSection(page, url, s)),
    urls: { app: url },
  };
}

const envelope = <T>(results: SearchResults, items: T[]): List<T> => ({
  count: results.count,
  items,
  ...(results.next ? { next: results.next } : {}),
});

/** The results of a space's search: its pages, best first. */
export function presentSpaceSearch(ctx: Ctx, space: SpaceRef, results: SearchResults): List<SearchPageResult> {
  return envelope(
    results,
    results.hits.map((hit) => presentPageHit(ctx, space, hit)),
  );
}

/** The results of an organization's search: the page of ranked pages asked for, grouped by space (the space of the best page first). */
export function presentOrganizationSearch(
  ctx: Ctx,
  spaces: readonly SearchedSpace[],
  results: SearchResults,
): List<SearchSpaceResult> {
  const byId = new Map(spaces.map((s) => [s.id, s]));
  const groups = new Map<string, SearchSpaceResult>();
  for (const hit of results.hits) {
    const space = byId.get(hit.spaceId);
    if (!space) continue;
    let group = groups.get(space.id);
    if (!group)
      groups.set(space.id, (group = { type: 'space', id: space.id, title: space.title, score: hit.score, pages: [] }));
    group.pages.push(presentPageHit(ctx, space, hit));
  }
  return envelope(results, [...groups.values()]);
}
