import { conditionHolds } from '@quire/kit';
import {
  documentToHtml,
  html,
  newRenderContext,
  type Html,
  type JSONDocument,
  type Ref,
  relativePage,
  type RenderContext,
  type Target,
} from '@quire/document/render';
import { pageDocuments } from './content-source.ts';
import type { PageTree, SitePage } from './page-tree.ts';
import { coverHtml } from '@quire/document/render';
import { updatedHtml } from '@quire/document/render';
import { iconHtml, iconUrl } from './render/icons.ts';
import { renderShell, type Shell } from './render/layout.ts';
import { breadcrumbs, outline, pageHref, prevNext, sidebar } from './render/navigation.ts';
import type { StructureMatch } from './resolve-url.ts';
import {
  absolutePageUrl,
  lookFor,
  sectionLinks,
  siteTitleFor,
  siteSpaceTitle,
  variantLinks,
  visibleSiteSpaces,
  visitorOf,
  type SiteView,
  type SpaceView,
} from './site-view.ts';
import { siteSpaceBasePath } from './resolve-url.ts';

const unknownReported = new Set<string>();

/** A relative link of the markdown (`../setup.md#a`, `setup`) as the URL of a page of the space, or null. */
export function resolveRelative(pages: PageTree, basePath: string, current: SitePage, url: string): string | null {
  const found = relativePage(pages.byPath, current.path, url);
  return found ? pageHref(pages, basePath, found.page) + found.suffix : null;
}

/** The rendering context of a page: links resolved to the site's URLs, files to signed links. */
export function renderContextFor(v: SiteView, s: SpaceView, page: SitePage): RenderContext {
  const spaces = visibleSiteSpaces(v);
  const visitor = visitorOf(v);
  const resolveRef = (ref: Ref): Target | null => {
    if (ref.space && ref.space !== s.siteSpace.entity.spaceId) {
      const other = spaces.find((t) => t.entity.spaceId === ref.space);
      return other
        ? { href: siteSpaceBasePath(v.tree, v.siteBasePath, other) || '/', title: siteSpaceTitle(other) }
        : null;
    }
    if (ref.kind === 'space') return { href: s.basePath || '/', title: siteSpaceTitle(s.siteSpace) };
    if (ref.kind === 'page' || ref.kind === 'anchor') {
      const target = ref.page ? s.pages.byId.get(ref.page) : page;
      if (!target || target.type === 'link') return null;
      const anchor = ref.kind === 'anchor' && ref.anchor ? `#${encodeURIComponent(ref.anchor)}` : '';
      const href = target.id === page.id && anchor ? anchor : pageHref(s.pages, s.basePath, target) + anchor;
      return { href, title: target.title };
    }
    return null;
  };
  // GitBook's search and ask buttons open the site's search page (with their query): it needs no script
  const actionHref = ({ action, query }: { action: string; query?: string | undefined }) =>
    action === 'search' || action === 'ask'
      ? `${v.siteBasePath}/~search${query?.trim() ? `?q=${encodeURIComponent(query.trim().slice(0, 200))}` : ''}`
      : null;
  return newRenderContext({
    actionHref,
    files: s.files,
    resolveRef,
    iconUrl,
    resolveRelative: (url) => resolveRelative(s.pages, s.basePath, page, url),
    variables: {},
    conditionHolds: (expression) => conditionHolds(expression, visitor, v.log),
    logUnknown: (type) => {
      if (unknownReported.has(type)) return;
      unknownReported.add(type);
      v.log(type, 'a document node the published renderer does not know: shown as its text');
    },
  });
}

/** The HTML document of a page of the site. */
export async function renderPage(
  v: SiteView,
  s: SpaceView,
  match: StructureMatch,
  page: SitePage,
  /** What follows the page's text (its "Was this page helpful?" form, when the customization asks for it). */
  after: Html = html``,
): Promise<string> {
  const docs = await pageDocuments(
    { peers: v.peers, requestId: v.requestId },
    s.siteSpace.entity.spaceId,
    s.revision.revision.id,
    [page.id],
  );
  const ctx = renderContextFor(v, s, page);
  const body = await documentToHtml(docs.get(page.id) as JSONDocument | undefined, ctx);
  const updated = updatedHtml(page.updatedAt);
  const spaceCrumb = visibleSiteSpaces(v).length > 1 ? siteSpaceTitle(s.siteSpace) : null;
  const emoji = page.emoji ? html`<span class="emoji" aria-hidden="true">${page.emoji} </span>` : html``;
  const description = page.description ? html`<p class="description">${page.description}</p>` : html``;
  const around = chrome(v, match);
  const main = html`${breadcrumbs(s.pages, s.basePath, page, spaceCrumb)}
<article class="page">
${coverHtml(page.cover, s.files)}<header class="page-header"><h1>${emoji}${iconHtml(page.icon, 'page-icon')}${page.title}</h1>${description}</header>
<div class="document">${body}</div>
${updated}
${after}
</article>
${around.look.pagination ? prevNext(s.pages, s.basePath, page) : html``}`;
  const shell: Shell = {
    ...around,
    title: page.title === around.siteTitle ? page.title : `${page.title} | ${around.siteTitle}`,
    description: page.description,
    canonical: absolutePageUrl(v, s, page),
    index: indexable(v) && !page.noIndex && !page.noRobotsIndex,
    sidebar: sidebar(s.pages, s.basePath, page),
    main,
    outline: outline(ctx.headings),
    math: body.value.includes('class="katex'),
  };
  return renderShell(shell).value;
}

/** Whether robots may index the site's pages: published `public` sites only. */
export const indexable = (v: SiteView) => v.site.visibility === 'public';

/** The header of every page of the site: title, sections, variants, search, and the customization's look. */
export function chrome(v: SiteView, match: StructureMatch | null) {
  const siteSpace = match?.siteSpace ?? null;
  return {
    siteTitle: siteTitleFor(v, siteSpace),
    look: lookFor(v, siteSpace),
    siteHome: v.siteBasePath,
    sections: match ? sectionLinks(v, match) : [],
    variants: match ? variantLinks(v, match) : [],
    searchAction: `${v.siteBasePath}/~search`,
  };
}

/** The site's "not found" page: its header, the space's sidebar when there is one. */
export function renderNotFound(
  v: SiteView,
  match: StructureMatch | null,
  s: SpaceView | null,
  message = 'This page does not exist, or you may not see it.',
): string {
  const home = html`<p><a href="${v.siteBasePath || '/'}">Go to the home page</a></p>`;
  const header = html`<header class="page-header"><h1>Page not found</h1></header>`;
  const body = html`<div class="document"><p>${message}</p>${home}</div>`;
  const main: Html = html`<article class="page">${header}${body}</article>`;
  const around = chrome(v, match);
  return renderShell({
    ...around,
    title: `Page not found | ${around.siteTitle}`,
    index: false,
    sidebar: s ? sidebar(s.pages, s.basePath, null) : html``,
    main,
    outline: html``,
    math: false,
  }).value;
}
