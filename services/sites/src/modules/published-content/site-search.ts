import { ops, type SearchPageResult, type SearchSpaceResult } from '@quire/contracts';
import { invalid } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { liveRevision } from '../published/content-source.ts';
import { fetchSpaces } from '../spaces/content-spaces.ts';
import type { SiteTree, TreeSpace } from '../structure/site-tree.ts';

type Ctx = Pick<SitesContext, 'peers' | 'actor' | 'requestId'>;

/** The scope of a site search, in GitBook's current (`scope`) or deprecated (`mode`, `siteSpaceId(s)`) form. */
export interface SiteSearchScopeInput {
  scope?:
    | {
        mode: 'default';
        currentSiteSpace?: string | undefined;
        restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' | undefined;
      }
    | { mode: 'specific'; siteSpaceIds: string[] }
    | { mode: 'all' }
    | undefined;
  mode?: 'specific' | 'current' | 'all' | undefined;
  siteSpaceId?: string | undefined;
  siteSpaceIds?: string[] | undefined;
}

/** The default site space of each section (or of the root): the site's "wide and shallow" scope. */
const defaults = (tree: SiteTree): TreeSpace[] =>
  (tree.kind === 'sections'
    ? tree.sections.map((s) => tree.effectiveDefault(s.id))
    : [tree.effectiveDefault(null)]
  ).filter((t): t is TreeSpace => !!t);

/**
 * The site spaces a search covers, among those the site shows (a site space not on the site, or hidden, is a
 * 400 naming the field): `all` (also when no scope is given), `specific` ones, or `default` — each section's
 * default plus the current site space, restricted to the current one or to the others.
 */
export function siteSpacesInScope(tree: SiteTree, input: SiteSearchScopeInput): TreeSpace[] {
  const shown = tree.shown;
  const pick = (id: string, field: string) => {
    const t = shown.find((s) => s.entity.id === id);
    if (!t) throw invalid(`Invalid request: ${field}: no site space ${id} shown on this site`);
    return t;
  };
  const scope = input.scope;
  if (scope?.mode === 'specific') return scope.siteSpaceIds.map((id) => pick(id, 'scope.siteSpaceIds'));
  if (!scope && (input.mode === 'specific' || (input.mode === undefined && input.siteSpaceIds))) {
    if (!input.siteSpaceIds) throw invalid('Invalid request: siteSpaceIds: required with `mode: specific`');
    return input.siteSpaceIds.map((id) => pick(id, 'siteSpaceIds'));
  }
  if (!scope && input.mode === 'current') {
    if (!input.siteSpaceId) throw invalid('Invalid request: siteSpaceId: required with `mode: current`');
    return unique([pick(input.siteSpaceId, 'siteSpaceId'), ...defaults(tree)]);
  }
  if (scope?.mode === 'default') {
    const current = scope.currentSiteSpace ? pick(scope.currentSiteSpace, 'scope.currentSiteSpace') : null;
    if (scope.restrictTo && !current)
      throw invalid('Invalid request: scope.currentSiteSpace: required with `restrictTo`');
    if (scope.restrictTo === 'currentSiteSpace') return [current!];
    const others = defaults(tree).filter((t) => t.entity.id !== current?.entity.id);
    return scope.restrictTo === 'otherSiteSpaces' ? others : unique([...(current ? [current] : []), ...others]);
  }
  return shown;
}

const unique = (items: TreeSpace[]) => [...new Map(items.map((t) => [t.entity.id, t])).values()];

/** Ids of the pages hidden from navigation and search in a revision's page tree (and everything under them). */
function hiddenPages(pages: readonly Record<string, unknown>[], out = new Set<string>(), under = false): Set<string> {
  for (const p of pages) {
    const hidden = under || p.hidden === true;
    if (hidden) out.add(String(p.id));
    if (Array.isArray(p.pages)) hiddenPages(p.pages as Record<string, unknown>[], out, hidden);
  }
  return out;
}

/**
 * Searches the spaces of the given site spaces — only those the caller can read, never a space the site does
 * not show — through content's search of published content, hidden pages left out; results grouped by space
 * in rank order (a space's place is that of its best page).
 */
export async function searchSiteSpaces(
  ctx: Ctx,
  siteSpaces: TreeSpace[],
  query: string,
  limit: number,
): Promise<{ count: number; items: SearchSpaceResult[] }> {
  const readable = await fetchSpaces(
    ctx,
    siteSpaces.map((t) => t.entity.spaceId),
  );
  const spaceIds = [...readable.keys()].filter((id) => !readable.get(id)!.deletedAt);
  if (!spaceIds.length) return { count: 0, items: [] };
  const { items } = await ctx.peers.asService(ops.searchPublishedContent, { spaceIds, query, limit }, ctx.requestId);
  const hidden = new Set<string>();
  for (const id of new Set(items.map((i) => i.space)))
    for (const p of hiddenPages((await liveRevision(ctx, id)).pages)) hidden.add(`${id}/${p}`);
  const groups = new Map<string, SearchPageResult[]>();
  for (const { space, page } of items) {
    if (hidden.has(`${space}/${page.id}`) || !readable.has(space)) continue;
    groups.set(space, [...(groups.get(space) ?? []), page]);
  }
  const result = [...groups].map(([id, pages]) => ({
    type: 'space' as const,
    id,
    title: readable.get(id)!.title,
    score: Math.max(...pages.map((p) => p.score)),
    pages,
  }));
  return { count: result.reduce((n, s) => n + s.pages.length, 0), items: result };
}
