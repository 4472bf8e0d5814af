import { ops, SEARCH_QUERY_MAX } from '@quire/contracts';
import { html, type Html } from '@quire/document/render';
import { pageDocuments } from './content-source.ts';
import { hidesBlocks } from './machines.ts';
import type { DocNode } from '@quire/document/render';
import { renderShell } from './render/layout.ts';
import { pageHref, sidebar } from './render/navigation.ts';
import type { StructureMatch } from './resolve-url.ts';
import { chrome } from './page-render.ts';
import {
  customizationFor,
  siteSpaceTitle,
  spaceView,
  visibleSiteSpaces,
  visitorOf,
  type SiteView,
  type SpaceView,
} from './site-view.ts';

export interface SearchHit {
  title: string;
  href: string;
  space: string;
  ancestors: string[];
  excerpts: { title: string; href: string; body: string }[];
}

/**
 * Searches what this visitor may read on the site: the spaces of the site spaces it sees, and among their
 * results only the pages its page tree keeps (a hidden page, or one a condition hides, is gone from search as
 * from every URL). A page with blocks hidden from the visitor shows its title without excerpts.
 */
export async function searchSite(v: SiteView, query: string): Promise<SearchHit[]> {
  const views = await Promise.all(visibleSiteSpaces(v).map((t) => spaceView(v, t)));
  const bySpace = new Map<string, SpaceView>();
  for (const s of views) if (!bySpace.has(s.siteSpace.entity.spaceId)) bySpace.set(s.siteSpace.entity.spaceId, s);
  if (!bySpace.size || !query.trim()) return [];
  const { items } = await v.peers.asService(
    ops.searchPublishedContent,
    { spaceIds: [...bySpace.keys()], query: query.slice(0, SEARCH_QUERY_MAX), limit: 30 },
    v.requestId,
  );
  const hits: SearchHit[] = [];
  for (const item of items) {
    const s = bySpace.get(item.space);
    const page = s?.pages.byId.get(item.page.id);
    if (!s || !page || page.noIndex || page.type !== 'document') continue;
    const docs = await pageDocuments({ peers: v.peers, requestId: v.requestId }, item.space, s.revision.revision.id, [
      page.id,
    ]);
    const partial = hidesBlocks(docs.get(page.id) as DocNode | undefined, visitorOf(v));
    const href = pageHref(s.pages, s.basePath, page);
    hits.push({
      title: page.title,
      href,
      space: siteSpaceTitle(s.siteSpace),
      ancestors: item.page.ancestors.map((a) => a.title),
      excerpts: partial
        ? []
        : item.page.sections.map((sec) => ({
            title: sec.title,
            href: sec.id !== page.id && sec.path.includes('#') ? `${href}#${encodeURIComponent(sec.id)}` : href,
            body: sec.body,
          })),
    });
  }
  return hits;
}

const excerptTitle = (h: SearchHit, e: SearchHit['excerpts'][number]) =>
  e.title !== h.title ? html`<a href="${e.href}">${e.title}</a>: ` : html``;

/** The customization's AI settings as the search page uses them: its greeting and suggested questions. */
export interface SearchPrompts {
  greeting: string | null;
  suggestions: string[];
}

/**
 * What the empty search page offers when the site's AI mode is `search` or `assistant`: the greeting, and each
 * suggestion as a link searching for it. Quire's pages have no chat: the suggestions run the site search.
 */
function prompts(p: SearchPrompts | null, action: string): Html {
  if (!p || (!p.greeting && !p.suggestions.length)) return html``;
  const greeting = p.greeting ? html`<p class="search-greeting">${p.greeting}</p>` : html``;
  const list = p.suggestions.length
    ? html`<h2 class="search-suggestions-title">Suggested searches</h2><ul class="search-suggestions">${p.suggestions.map(
        (q) => html`<li><a href="${`${action}?q=${encodeURIComponent(q)}`}">${q}</a></li>`,
      )}</ul>`
    : html``;
  return html`${greeting}${list}`;
}

function results(query: string, hits: SearchHit[], multiSpace: boolean, empty: Html = html``): Html {
  if (!query.trim()) return html`<p>Type words to search this site.</p>${empty}`;
  if (!hits.length) return html`<p role="status">No results for “${query}”.</p>`;
  return html`<p role="status">${hits.length === 1 ? '1 result' : `${hits.length} results`} for “${query}”.</p>
<ol class="search-results">${hits.map(
    (h) =>
      html`<li><p class="result-title"><a href="${h.href}">${h.title}</a></p>${
        multiSpace || h.ancestors.length
          ? html`<p class="meta">${[...(multiSpace ? [h.space] : []), ...h.ancestors].join(' › ')}</p>`
          : html``
      }${h.excerpts.map((e) => html`<p class="excerpt">${excerptTitle(h, e)}${e.body}</p>`)}</li>`,
  )}</ol>`;
}

/** The search results page, in the site's look, and how many results it shows. */
export async function renderSearchPage(
  v: SiteView,
  match: StructureMatch,
  query: string,
): Promise<{ body: string; results: number }> {
  const hits = await searchSite(v, query);
  const current = await spaceView(v, match.siteSpace);
  const header = html`<header class="page-header"><h1>Search</h1></header>`;
  const around = chrome(v, match);
  const ai = customizationFor(v, match.siteSpace).ai;
  const offered =
    ai.mode === 'none'
      ? null
      : { greeting: ai.greeting?.trim() || null, suggestions: (ai.suggestions ?? []).filter((q) => q.trim()) };
  const main = html`<article class="page">${header}${results(
    query,
    hits,
    visibleSiteSpaces(v).length > 1,
    prompts(offered, around.searchAction),
  )}</article>`;
  const body = renderShell({
    ...around,
    title: query ? `Search: ${query} | ${around.siteTitle}` : `Search | ${around.siteTitle}`,
    index: false,
    sidebar: sidebar(current.pages, current.basePath, null),
    main,
    outline: html``,
    query,
    math: false,
  }).value;
  return { body, results: hits.length };
}
