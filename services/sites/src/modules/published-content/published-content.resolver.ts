import { createHash } from 'node:crypto';
import type { PublishedSiteContentLookup } from '@quire/contracts';
import { DomainError, notFound, signApiToken } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ConditionContext } from '@quire/kit';
import { UNSIGNED_COOKIE, unsignedClaims } from '../published/audience.ts';
import { liveRevision } from '../published/content-source.ts';
import { buildPageTree, pageAt } from '../published/page-tree.ts';
import { findSiteRedirect } from '../redirects/redirect.repository.ts';
import { findPublishedSite, matchStructure, type SiteMatch } from '../published/resolve-url.ts';
import { verifyVisitorToken, visitorAuthUrls } from '../publishing-auth/visitor-token.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import type { ISite } from '../sites/site.entity.ts';
import { SiteTree } from '../structure/site-tree.ts';

type Ctx = Pick<SitesContext, 'em' | 'config' | 'urls' | 'log' | 'peers' | 'requestId'>;

/** What a renderer asks: a published URL, for a visitor. */
export interface LookupRequest {
  url: string;
  jwtToken?: string | undefined;
  unsignedClaims?: Record<string, unknown> | undefined;
  redirectOnError: boolean;
}

/** Registered JWT fields of a visitor token: not claims about the visitor. */
const REGISTERED = new Set(['exp', 'iat', 'nbf', 'jti', 'iss', 'aud', 'sub']);

interface Visitor {
  shareKey: string | null;
  claims: Record<string, unknown>;
  personal: boolean;
}

/**
 * Who visits, for this site: a `share-link` site needs the key of one of its active links (`?share=` in the
 * URL), else 404 as if there were no site; a `visitor-auth` site needs a JWT signed with the site's key,
 * else the sign-in redirect (or 401). Sites with adaptive content read the JWT when given and the unsigned
 * claims their schema declares.
 */
async function visitorOf(
  ctx: Ctx,
  site: ISite,
  url: URL,
  req: LookupRequest,
): Promise<Visitor | PublishedSiteContentLookup> {
  const shareKey =
    site.visibility === 'share-link'
      ? await resolveShareKey(ctx, site, url.searchParams.get('share') ?? undefined)
      : null;
  if (site.visibility === 'share-link' && !shareKey) throw notFound('Published content');
  const token = req.jwtToken ?? url.searchParams.get('jwt_token') ?? undefined;
  let signed: Record<string, unknown> | null = null;
  if (token && (site.visibility === 'visitor-auth' || site.adaptiveEnabled))
    signed = await verifyVisitorToken(ctx.em, site.id, token, ctx.config);
  if (site.visibility === 'visitor-auth' && !signed) {
    const { fallbackURL } = await visitorAuthUrls(ctx.em, site.id);
    if (fallbackURL && (req.redirectOnError || !token))
      return { target: 'external', site: site.id, redirect: signInUrl(fallbackURL, url) };
    throw new DomainError(
      'unauthenticated',
      'This site needs visitor authentication: send `visitor.jwtToken` signed with the site key',
    );
  }
  const query = Object.fromEntries(url.searchParams);
  const cookies: Record<string, string> = req.unsignedClaims
    ? { [UNSIGNED_COOKIE]: JSON.stringify(req.unsignedClaims) }
    : {};
  const unsigned = site.adaptiveEnabled ? unsignedClaims(site, { query, cookies }) : {};
  const own = Object.fromEntries(Object.entries(signed ?? {}).filter(([k]) => !REGISTERED.has(k)));
  return { shareKey, claims: { ...own, unsigned }, personal: signed !== null || Object.keys(unsigned).length > 0 };
}

/** The sign-in URL with the page the visitor wanted as `location` (the auth backend sends it back there). */
function signInUrl(fallbackURL: string, wanted: URL): string {
  const url = new URL(fallbackURL);
  url.searchParams.set('location', wanted.pathname);
  return url.toString();
}

/**
 * When the page path names no page of the site space's live revision (as this visitor sees it), the site's
 * redirect for the whole path, if it has one: `content` to a URL of the site (absolute, with the share key of
 * a share-link site), `external` to another site.
 */
async function redirectFor(
  ctx: Ctx,
  match: SiteMatch,
  url: URL,
  spaceId: string,
  pagePath: string,
  visitor: ConditionContext,
  shareKey: string | null,
): Promise<PublishedSiteContentLookup | null> {
  if (!pagePath) return null;
  const content = { peers: ctx.peers, requestId: ctx.requestId };
  if (pageAt(buildPageTree((await liveRevision(content, spaceId)).pages, visitor), pagePath)) return null;
  const pagePathOf = async (space: string, pageId: string) =>
    buildPageTree((await liveRevision(content, space)).pages, visitor).byId.get(pageId)?.path ?? null;
  const found = await findSiteRedirect(
    ctx.em,
    match.site.id,
    `/${match.segments.map(encodeURIComponent).join('/')}`,
    pagePathOf,
  );
  if (!found) return null;
  if (/^https?:\/\//.test(found.target)) return { target: 'external', site: match.site.id, redirect: found.target };
  const target = new URL(`${match.siteBasePath}${found.target === '/' ? '' : found.target}` || '/', url.origin);
  if (shareKey) target.searchParams.set('share', shareKey);
  return { target: 'content', redirect: target.toString() };
}

const withSlash = (path: string) => (path.endsWith('/') ? path : `${path}/`);
const contextIdOf = (claims: Record<string, unknown>) =>
  createHash('sha256').update(JSON.stringify(claims)).digest('base64url').slice(0, 22);

/**
 * A published URL resolved for a visitor: the site, section, site space and page path it shows them, with an
 * api token for the visitor; a redirect to the sign-in page for a visitor-auth site without a valid token.
 * 404 when no published site is at the URL or nothing on it is visible to the visitor.
 */
export async function lookupPublishedContent(ctx: Ctx, req: LookupRequest): Promise<PublishedSiteContentLookup> {
  const url = new URL(req.url);
  const match: SiteMatch | null = await findPublishedSite(ctx.em, {
    host: url.host,
    path: url.pathname,
    publicBase: ctx.urls.base,
  });
  if (!match) throw notFound('Published content');
  const visitor = await visitorOf(ctx, match.site, url, req);
  if (!('claims' in visitor)) return visitor;
  const tree = await SiteTree.load(ctx.em, match.site.id);
  const context: ConditionContext = { visitor: { claims: visitor.claims } };
  const found = matchStructure(tree, match, context, (condition, error) =>
    ctx.log.warn({ site: match.site.id, condition, error }, 'condition not parsed'),
  );
  if (!found) throw notFound('Published content');
  const redirect = await redirectFor(
    ctx,
    match,
    url,
    found.siteSpace.entity.spaceId,
    found.pagePath,
    context,
    visitor.shareKey,
  );
  if (redirect) return redirect;
  const { site } = match;
  const siteSpace = found.siteSpace.entity;
  const live = await liveRevision({ peers: ctx.peers, requestId: ctx.requestId }, siteSpace.spaceId);
  const basePath = withSlash(found.basePath);
  const apiToken = await signApiToken(ctx.config.QUIRE_INTERNAL_SECRET, {
    site: site.id,
    organization: site.organizationId,
    siteSpace: siteSpace.id,
    space: siteSpace.spaceId,
    ...(visitor.shareKey ? { shareKey: visitor.shareKey } : {}),
    claims: visitor.claims,
  });
  return {
    site: site.id,
    ...(found.section ? { siteSection: found.section.id } : {}),
    siteSpace: siteSpace.id,
    space: siteSpace.spaceId,
    organization: site.organizationId,
    ...(visitor.shareKey ? { shareKey: visitor.shareKey } : {}),
    pathname: found.pagePath,
    basePath,
    siteBasePath: withSlash(match.siteBasePath),
    canonicalUrl: new URL(
      basePath + found.pagePath.split('/').map(encodeURIComponent).join('/'),
      url.origin,
    ).toString(),
    complete: found.complete,
    revision: live.revision.id,
    apiToken,
    ...(visitor.personal ? { contextId: contextIdOf(visitor.claims) } : {}),
  };
}
