import { ops, readerOf, type Actor, type SearchPageResult, type SearchSpaceResult } from '@quire/contracts';
import { hidesBlocks, invalid } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { liveRevision, pageDocuments } from '../published/content-source.ts';
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
 * The site spaces a search covers, among those the site shows the caller — a reader (published-content token), only
 * those its claims show it — (a site space not on the site, or hidden, is a 400 naming the field): `all` (also when
 * no scope is given), `specific` ones, or `default` — each section's default plus the current site space,
 * restricted to the current one or to the others.
 */
export function siteSpacesInScope(tree: SiteTree, input: SiteSearchScopeInput, actor?: Actor): TreeSpace[] {
  const reader = actor && readerOf(actor);
  const shown = reader ? tree.shown.filter((t) => reader.siteSpaces.some((s) => s.id === t.entity.id)) : tree.shown;
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
    return unique([pick(input.siteSpaceId, 'siteSpaceId'), ...defaults(tree).filter((t) => shown.includes(t))]);
  }
  if (scope?.mode === 'default') {
    const current = scope.currentSiteSpace ? pick(scope.currentSiteSpace, 'scope.currentSiteSpace') : null;
    if (scope.restrictTo && !current)
      throw invalid('Invalid request: scope.currentSiteSpace: required with `restrictTo`');
    if (scope.restrictTo === 'currentSiteSpace') return [current!];
    const others = defaults(tree).filter((t) => t.entity.id !== current?.entity.id && shown.includes(t));
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
 * A reader's results as the site's search page shows them: a page with blocks the reader's claims hide keeps its
 * title, without excerpts (they could quote what is hidden).
 */
async function withoutHiddenExcerpts(
  ctx: Ctx,
  items: { space: string; page: SearchPageResult }[],
): Promise<{ space: string; page: SearchPageResult }[]> {
  const reader = readerOf(ctx.actor);
  if (!reader) return items;
  const context = { visitor: { claims: reader.claims } };
  const out: { space: string; page: SearchPageResult }[] = [];
  for (const item of items) {
    const revision = (await liveRevision(ctx, item.space)).revision.id;
    const doc = (await pageDocuments(ctx, item.space, revision, [item.page.id])).get(item.page.id);
    out.push(hidesBlocks(doc, { context }) ? { ...item, page: { ...item.page, sections: [] } } : item);
  }
  return out;
}

/**
 * Searches the spaces of the given site spaces — only those the caller can read, never a space the site does
 * not show — through content's search of published content, hidden pages left out (for a reader, the excerpts of
 * pages with blocks hidden from it too); results grouped by space in rank order (a space's place is that of its
 * best page).
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
  const found = await ctx.peers.asService(ops.searchPublishedContent, { spaceIds, query, limit }, ctx.requestId);
  const items = await withoutHiddenExcerpts(ctx, found.items);
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
