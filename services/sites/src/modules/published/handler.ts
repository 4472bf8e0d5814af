import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { OperationInput } from '@quire/contracts';
import type { ops } from '@quire/contracts';
import type { SitesContext } from '../../trpc.ts';
import { findSiteRedirect } from '../redirects/redirect.repository.ts';
import { decideAudience, type Audience } from './audience.ts';
import { liveRevision } from './content-source.ts';
import { html, type Html } from '@quire/document/render';
import {
  queueReaderEvent,
  ratingForm,
  RATING_SEGMENT,
  RATINGS,
  recordRating,
  verifyRatingToken,
  type Rating,
  type ReaderRequest,
} from '../insights/reader-events.ts';
import { llmsFullTxt, llmsTxt, markdownOf, robots, sitemap } from './machines.ts';
import { pageAt, type SitePage } from './page-tree.ts';
import { pageHref } from './render/navigation.ts';
import { chrome, indexable, renderNotFound, renderPage } from './page-render.ts';
import { renderShell } from './render/layout.ts';
import {
  isCustomHost,
  matchPublishedSite,
  matchStructure,
  type SiteMatch,
  type StructureMatch,
} from './resolve-url.ts';
import { renderSearchPage } from './search-page.ts';
import { publishedSiteSnapshot } from './site-cache.ts';
import { lookFor, siteUrlOf, spaceView, visibleSiteSpaces, type SiteView, type SpaceView } from './site-view.ts';
import { FONT_SHEET_SEGMENT, fontSheet } from './render/fonts.ts';
import { FONT_BASE } from './render/look.ts';

type Input = OperationInput<typeof ops.getPublishedSitePage>;
export interface SiteResponse {
  kind: 'response' | 'none';
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body: string;
}

const HTML = 'text/html; charset=utf-8';
const NONE: SiteResponse = { kind: 'none', status: 404, headers: {}, cookies: [], body: '' };

/** Rendered pages by (site, structure, revision, page, audience): revisions are immutable, so entries only age out. */
interface RenderedPage {
  status: number;
  type: string;
  body: string;
  etag: string;
}
const rendered = new LRUCache<string, RenderedPage>({
  max: 5_000,
  maxSize: 300_000_000,
  sizeCalculation: (e) => Math.max(1, e.body.length),
  ttl: 20 * 60_000,
});

const etagOf = (body: string) => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

function securityHeaders(v: { urls: { base: string } }): Record<string, string> {
  const api = new URL(v.urls.base).origin;
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' ${api} data:`,
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'self'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

function respond(
  ctx: SitesContext,
  input: Input,
  status: number,
  type: string,
  body: string,
  audience: Audience | null,
  index = true,
  etag?: string,
): SiteResponse {
  const headers: Record<string, string> = { 'content-type': type, ...securityHeaders(ctx) };
  headers['cache-control'] =
    !audience || audience.private
      ? 'private, no-store'
      : status === 200
        ? 'public, max-age=60, stale-while-revalidate=300'
        : 'public, max-age=30';
  if (!index) headers['x-robots-tag'] = 'noindex, nofollow';
  if (status === 200) headers.etag = etag ?? etagOf(body);
  const cookies = audience?.cookies ?? [];
  if (status === 200 && input.ifNoneMatch && input.ifNoneMatch.split(/\s*,\s*/).includes(headers.etag!))
    return { kind: 'response', status: 304, headers, cookies, body: '' };
  return { kind: 'response', status, headers, cookies, body };
}

const redirect = (location: string, status: number, cookies: string[] = []): SiteResponse => ({
  kind: 'response',
  status,
  headers: { location, 'cache-control': 'private, no-store' },
  cookies,
  body: '',
});

/** A page with no site around it (an unknown site, a private one the visitor may not open). */
function bare(ctx: SitesContext, input: Input, status: number, title: string, message: string): SiteResponse {
  const header = html`<header class="page-header"><h1>${title}</h1></header>`;
  const main = html`<article class="page">${header}<div class="document"><p>${message}</p></div></article>`;
  const body = renderShell({
    siteTitle: 'Quire',
    siteHome: '/',
    title,
    index: false,
    sections: [],
    variants: [],
    sidebar: html``,
    main,
    outline: html``,
    searchAction: '/',
    searchHidden: true,
    math: false,
  }).value;
  return respond(ctx, input, status, HTML, body, null, false);
}

/** The site's base path for links: the proxy's path when the request came through the site's proxy. */
function basePathFor(match: SiteMatch, input: Input): string {
  const proxy = match.site.proxyOrigin;
  if (!proxy || !input.forwardedHost) return match.siteBasePath;
  try {
    // Stored as a host and path (`example.com/docs`).
    const url = new URL(/^https?:\/\//.test(proxy) ? proxy : `https://${proxy}`);
    return input.forwardedHost.toLowerCase() === url.host.toLowerCase()
      ? url.pathname.replace(/\/+$/, '')
      : match.siteBasePath;
  } catch {
    return match.siteBasePath;
  }
}

/**
 * One request of a reader to a published site: the site from the host and path, the visitor's audience
 * (share key, visitor token, claims), then the special files (`robots.txt`, `sitemap.xml`, `llms.txt`,
 * `llms-full.txt`, `~search`, `<page>.md`) or the page itself; unknown paths follow the site's redirects,
 * else the site's 404 page.
 */
export async function handlePublishedRequest(ctx: SitesContext, input: Input): Promise<SiteResponse> {
  const publicBase = ctx.urls.base;
  // The site and its structure from this process's cache (site-cache.ts): no statement for a cached site.
  const match = await matchPublishedSite({ host: input.host, path: input.path, publicBase }, (by) =>
    publishedSiteSnapshot(ctx.em, by),
  );
  if (!match) {
    if (isCustomHost(input.host, publicBase) && !input.path.startsWith('/sites/')) return NONE;
    return bare(ctx, input, 404, 'Site not found', 'There is no published site at this address.');
  }
  const siteBasePath = basePathFor(match, input);
  const secure = publicBase.startsWith('https:') || match.siteBasePath === '';
  const decision = await decideAudience(ctx, match.site, {
    query: input.query,
    cookies: input.cookies,
    siteBasePath,
    secure,
  });
  const last = match.segments.at(-1) ?? '';
  if (decision.kind === 'not-found') {
    if (match.segments.length === 1 && last === 'robots.txt')
      return respond(ctx, input, 200, 'text/plain; charset=utf-8', 'User-agent: *\nDisallow: /\n', null, false);
    return bare(ctx, input, 404, 'Page not found', 'This page does not exist, or you may not see it.');
  }
  if (decision.kind === 'sign-in') {
    if (decision.location) {
      const target = new URL(decision.location);
      target.searchParams.set(
        'location',
        `${siteUrlOf(ctx.urls, match.site)}${input.path.slice(match.siteBasePath.length)}`,
      );
      return redirect(target.toString(), 302);
    }
    return bare(ctx, input, 401, 'Sign-in required', 'This site is for signed-in visitors only.');
  }
  const audience = decision.audience;
  const v: SiteView = {
    site: match.site,
    tree: match.tree,
    siteBasePath,
    siteUrl: siteUrlOf(ctx.urls, match.site),
    audience,
    log: (condition, error) =>
      ctx.log.warn({ site: match.site.id, condition, error }, 'published site: condition not shown'),
    peers: ctx.peers,
    requestId: ctx.requestId,
    urls: ctx.urls,
    proxied: siteBasePath !== match.siteBasePath,
  };
  return serve(ctx, input, v, match);
}

/** A request of a visitor the site lets in: a special file, the search page, or a page (as HTML or markdown). */
async function serve(
  ctx: SitesContext,
  input: Input,
  v: SiteView,
  match: SiteMatch & { fingerprint: string },
): Promise<SiteResponse> {
  const { audience } = v;
  if (input.method === 'POST') {
    if (match.segments.length === 1 && match.segments[0] === RATING_SEGMENT) return rate(ctx, input, v);
    return respond(ctx, input, 404, HTML, renderNotFound(v, null, null), audience, false);
  }
  if (match.segments.length === 2 && match.segments[0] === FONT_SHEET_SEGMENT) return fontSheetOf(ctx, input, v, match);
  if (match.segments.length === 1) {
    const special = await machineFile(v, match.segments[0]!);
    if (special)
      return respond(
        ctx,
        input,
        special.status,
        special.type,
        special.body,
        audience,
        indexable(v) && special.status === 200,
      );
  }
  const last = match.segments.at(-1) ?? '';
  const markdown = last.endsWith('.md') && last.length > 3;
  const segments = markdown ? [...match.segments.slice(0, -1), last.slice(0, -3)] : match.segments;
  const structure = matchStructure(
    v.tree,
    { ...match, siteBasePath: v.siteBasePath, segments },
    audience.visitor,
    v.log,
  );
  if (!structure) {
    brokenLink(ctx, input, v, null);
    return respond(ctx, input, 404, HTML, renderNotFound(v, null, null), audience, false);
  }
  if (structure.pagePath === '~search' && !markdown) {
    const q = (input.query.q ?? '').slice(0, 200);
    const searched = await renderSearchPage(v, structure, q);
    if (q.trim())
      queueReaderEvent(eventCtx(ctx), input, {
        site: v.site.id,
        kind: 'search',
        siteSpace: structure.siteSpace.entity.id,
        space: structure.siteSpace.entity.spaceId,
        page: null,
        query: q,
        resultCount: searched.results,
        urlPath: input.path,
      });
    return respond(ctx, input, 200, HTML, searched.body, audience, false);
  }
  return servePage(ctx, input, v, { match, structure, segments, markdown });
}

interface PageRequest {
  match: SiteMatch & { fingerprint: string };
  structure: StructureMatch;
  /** The path's segments, without the `.md` of a markdown request. */
  segments: string[];
  markdown: boolean;
}

const SHEET_NAME = /^([0-9a-f]{20})\.css$/;

/**
 * `<site>/~fonts/{hash}.css`: the stylesheet of the fonts of the site's pages (the site's customization, or a site
 * space's overrides) whose hash is the one asked. Its URL changes with what it says, so it is cached for a year as
 * immutable (privately on a site visitors sign in to); 404 for a hash no page of the site links to any more.
 */
function fontSheetOf(ctx: SitesContext, input: Input, v: SiteView, match: SiteMatch): SiteResponse {
  const name = SHEET_NAME.exec(match.segments[1]!);
  const sheet = name
    ? [null, ...v.tree.spaces].map((ts) => fontSheet(lookFor(v, ts).fonts, FONT_BASE)).find((f) => f?.hash === name[1])
    : undefined;
  if (!sheet) return respond(ctx, input, 404, 'text/plain; charset=utf-8', 'No such stylesheet\n', v.audience, false);
  const res = respond(ctx, input, 200, 'text/css; charset=utf-8', sheet.css, v.audience, false);
  res.headers['cache-control'] = `${v.audience.private ? 'private' : 'public'}, max-age=31536000, immutable`;
  delete res.headers['x-robots-tag'];
  return res;
}

/** A page of a site space: its markdown, or its HTML (rendered once per revision and audience), else a redirect or 404. */
async function servePage(ctx: SitesContext, input: Input, v: SiteView, r: PageRequest): Promise<SiteResponse> {
  const { audience } = v;
  const s = await spaceView(v, r.structure.siteSpace);
  let page = pageAt(s.pages, r.structure.pagePath);
  if (!page && r.markdown && r.structure.pagePath.split('/').at(-1) === 'index')
    page = pageAt(s.pages, r.structure.pagePath.replace(/\/?index$/, ''));
  if (!page) {
    const moved = await followRedirect(ctx, v, r.segments);
    if (moved) return moved;
    brokenLink(ctx, input, v, s);
    return respond(ctx, input, 404, HTML, renderNotFound(v, r.structure, s), audience, false);
  }
  const index = indexable(v) && !page.noIndex;
  if (r.markdown) {
    const text = (await markdownOf(v, s, [page])).get(page.id) ?? '';
    return respond(ctx, input, 200, 'text/markdown; charset=utf-8', text, audience, index);
  }
  const entry = await renderedPage(ctx, v, r, s, page);
  if (entry.status === 200)
    queueReaderEvent(eventCtx(ctx), input, {
      site: v.site.id,
      kind: 'page_view',
      siteSpace: s.siteSpace.entity.id,
      space: s.siteSpace.entity.spaceId,
      page: page.id,
      urlPath: input.path,
    });
  return respond(ctx, input, entry.status, entry.type, entry.body, audience, index && !page.noRobotsIndex, entry.etag);
}

/** A page's HTML from the cache of rendered pages, rendered when it is not there. */
async function renderedPage(
  ctx: SitesContext,
  v: SiteView,
  r: PageRequest,
  s: SpaceView,
  page: SitePage,
): Promise<RenderedPage> {
  const key = [
    v.site.id,
    r.match.fingerprint,
    s.siteSpace.entity.id,
    s.revision.revision.id,
    page.id,
    v.audience.claimsHash,
    v.siteBasePath,
    r.structure.basePath,
  ].join('|');
  let entry = rendered.get(key);
  if (!entry) {
    // The "Was this page helpful?" form when the customization turns page feedback on (`feedback.enabled`).
    const rating = lookFor(v, s.siteSpace).feedback
      ? await ratingForm(ctx.config.QUIRE_INTERNAL_SECRET, `${v.siteBasePath}/${RATING_SEGMENT}`, {
          site: v.site.id,
          siteSpace: s.siteSpace.entity.id,
          space: s.siteSpace.entity.spaceId,
          page: page.id,
          href: pageHref(s.pages, s.basePath, page),
        })
      : html``;
    const body = await renderPage(v, s, r.structure, page, rating);
    entry = { status: 200, type: HTML, body, etag: etagOf(body) };
    rendered.set(key, entry);
  }
  return entry;
}

async function machineFile(v: SiteView, name: string): Promise<{ status: number; type: string; body: string } | null> {
  const text = 'text/plain; charset=utf-8';
  switch (name) {
    case 'robots.txt':
      return { status: 200, type: text, body: robots(v) };
    case 'sitemap.xml':
      return v.site.visibility === 'public'
        ? { status: 200, type: 'application/xml; charset=utf-8', body: await sitemap(v) }
        : null;
    case 'llms.txt':
      return v.site.agentsContext === 'excluded' ? null : { status: 200, type: text, body: await llmsTxt(v) };
    case 'llms-full.txt':
      return v.site.agentsContext === 'excluded' ? null : { status: 200, type: text, body: await llmsFullTxt(v) };
    default:
      return null;
  }
}

/** The site's redirect for a path that names no page (D's `findSiteRedirect`): 308/307 to where it leads now. */
async function followRedirect(ctx: SitesContext, v: SiteView, segments: string[]): Promise<SiteResponse | null> {
  const source = `/${segments.map(encodeURIComponent).join('/')}`;
  const pagePath = async (spaceId: string, pageId: string) => {
    const revision = await liveRevision({ peers: ctx.peers, requestId: ctx.requestId }, spaceId);
    const find = (pages: readonly Record<string, unknown>[]): string | null => {
      for (const p of pages) {
        if (p.id === pageId) return typeof p.path === 'string' ? p.path : null;
        const inner = Array.isArray(p.pages) ? find(p.pages as Record<string, unknown>[]) : null;
        if (inner !== null) return inner;
      }
      return null;
    };
    return find(revision.pages as unknown as Record<string, unknown>[]);
  };
  const found = await findSiteRedirect(ctx.em, v.site.id, source, pagePath);
  if (!found) return null;
  const location = /^https?:\/\//.test(found.target)
    ? found.target
    : `${v.siteBasePath}${found.target === '/' ? '' : found.target}` || '/';
  return redirect(location, found.permanent ? 308 : 307, v.audience.cookies);
}

const eventCtx = (ctx: SitesContext) => ({ em: ctx.em, log: ctx.log, secret: ctx.config.QUIRE_INTERNAL_SECRET });

/** What browsers ask of any site by themselves (icons, `/.well-known/…`): a 404 of theirs is no broken link. */
const BROWSER_PROBE = /(?:^|\/)(?:favicon\.ico|apple-touch-icon[\w-]*\.png|\.well-known(?:\/.*)?)$/i;

/**
 * A reader followed a link to a path of the site that names no page: a page view without a page (GitBook's 404),
 * with the path asked for. Not what browsers probe by themselves.
 */
function brokenLink(ctx: SitesContext, input: Input, v: SiteView, s: SpaceView | null): void {
  if (BROWSER_PROBE.test(input.path)) return;
  queueReaderEvent(eventCtx(ctx), input, {
    site: v.site.id,
    kind: 'page_view',
    siteSpace: s?.siteSpace.entity.id ?? null,
    space: s?.siteSpace.entity.spaceId ?? null,
    page: null,
    urlPath: input.path,
  });
}

/** A short page of the site (a rating's thanks, a refused vote), in the site's look; never cached, never indexed. */
function notice(v: SiteView, title: string, message: Html): string {
  const main = html`<article class="page"><header class="page-header"><h1>${title}</h1></header>
<div class="document">${message}</div></article>`;
  const around = chrome(v, null);
  return renderShell({
    ...around,
    title: `${title} | ${around.siteTitle}`,
    index: false,
    sidebar: html``,
    main,
    outline: html``,
    math: false,
  }).value;
}

/**
 * `POST <site>/~rating` (the "Was this page helpful?" form of the pages, when `feedback.enabled`): the form's signed
 * token names the page (400 when it is missing, forged, expired or of another site, when the page's site space is no
 * longer shown to this visitor, or when its customization turned feedback off), the rating is one of GitBook's (400
 * otherwise). Recorded once per page a day per visitor, nothing with DNT/Sec-GPC; the answer thanks the reader either
 * way and links back to the page.
 */
async function rate(ctx: SitesContext, input: Input, v: SiteView): Promise<SiteResponse> {
  const refuse = (message: string) =>
    respond(
      ctx,
      input,
      400,
      HTML,
      notice(
        v,
        'Your vote was not counted',
        html`<p>${message}</p><p><a href="${v.siteBasePath || '/'}">Go to the home page</a></p>`,
      ),
      v.audience,
      false,
    );
  const form = input.form ?? {};
  const target = await verifyRatingToken(ctx.config.QUIRE_INTERNAL_SECRET, form.token ?? '');
  if (target === 'expired') return refuse('This page was open for too long. Reload it and vote again.');
  if (target === 'invalid' || target.site !== v.site.id)
    return refuse('This vote did not come from a page of this site.');
  const shown = visibleSiteSpaces(v).find((t) => t.entity.id === target.siteSpace);
  if (!shown) return refuse('This page is no longer on this site.');
  if (!lookFor(v, shown).feedback) return refuse('This site no longer asks for feedback on its pages.');
  const rating = form.rating;
  if (!rating || !(RATINGS as readonly string[]).includes(rating)) return refuse('Choose Yes or No.');
  await recordRating(ctx.em, ctx.config.QUIRE_INTERNAL_SECRET, target, rating as Rating, input as ReaderRequest);
  const back = html`<p>Thank you for your feedback.</p><p><a href="${target.href || '/'}">Back to the page</a></p>`;
  const res = respond(ctx, input, 200, HTML, notice(v, 'Thank you', back), v.audience, false);
  return { ...res, headers: { ...res.headers, 'cache-control': 'private, no-store' } };
}
