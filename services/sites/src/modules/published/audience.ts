import { createHash } from 'node:crypto';
import type { EntityManager } from '@quire/kit';
import type { ConditionContext } from '@quire/kit';
import { verifyVisitorToken, visitorAuthUrls } from '../publishing-auth/visitor-token.ts';
import type { KeyBoxConfig } from '../publishing-auth/private-key.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import type { ISite } from '../sites/site.entity.ts';

/** The cookies a published site sets, scoped to the site's base path. */
export const SHARE_COOKIE = 'quire_share';
export const VISITOR_COOKIE = 'quire_visitor';
/** GitBook's cookie of unsigned claims (a JSON object), also read from `visitor.<claim>` query parameters. */
export const UNSIGNED_COOKIE = 'gitbook-visitor-public';

export interface AudienceRequest {
  query: Record<string, string>;
  cookies: Record<string, string>;
  /** The site's base path as the visitor sees it (cookie scope). */
  siteBasePath: string;
  /** Cookies get `Secure` when the site is served over https. */
  secure: boolean;
}

/** Who is reading, as far as the site's audience and adaptive content care. */
export interface Audience {
  visitor: ConditionContext;
  /** The key of the share link that opened the site (share-link sites). */
  shareKey: string | null;
  /** Not for shared caches: the page depends on a key, a token or claims. */
  private: boolean;
  /** Distinguishes cached renderings for different claims. */
  claimsHash: string;
  cookies: string[];
}

export type AudienceDecision =
  | { kind: 'ok'; audience: Audience }
  /** No (active) share key: the site's 404 page, as if there were no site. */
  | { kind: 'not-found' }
  /** Visitor authentication without a valid token: sign in there (null: the site has no sign-in URL set). */
  | { kind: 'sign-in'; location: string | null };

const THIRTY_DAYS = 30 * 24 * 3600;

function cookie(name: string, value: string, req: AudienceRequest, maxAge = THIRTY_DAYS): string {
  const path = req.siteBasePath || '/';
  const secure = req.secure ? '; Secure' : '';
  return `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The unsigned claims the site's schema declares (`properties.unsigned.properties`), from `visitor.<name>`
 * query parameters or the `gitbook-visitor-public` cookie; booleans from `true`/`false`, others as text.
 * Claims the schema does not declare are ignored.
 */
export function unsignedClaims(
  site: Pick<ISite, 'adaptiveSchema'>,
  req: Pick<AudienceRequest, 'query' | 'cookies'>,
): Record<string, unknown> {
  const declared = (
    site.adaptiveSchema?.properties as Record<string, { properties?: Record<string, { type?: string }> }> | undefined
  )?.unsigned?.properties;
  if (!declared) return {};
  let fromCookie: Record<string, unknown> = {};
  try {
    const parsed: unknown = req.cookies[UNSIGNED_COOKIE] ? JSON.parse(req.cookies[UNSIGNED_COOKIE]) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fromCookie = parsed as Record<string, unknown>;
  } catch {
    fromCookie = {};
  }
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(declared)) {
    const value = req.query[`visitor.${name}`] ?? fromCookie[name];
    if (value === undefined) continue;
    if (def?.type === 'boolean') out[name] = value === true || value === 'true';
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = value;
  }
  return out;
}

const hashOf = (claims: Record<string, unknown>) =>
  createHash('sha256').update(JSON.stringify(claims)).digest('base64url').slice(0, 16);

/**
 * Decides whether the visitor may read the published site, and with which claims: `public` and `unlisted`
 * sites are open; a `share-link` site needs the key of one of its active links (`?share=` sets a cookie);
 * a `visitor-auth` site needs a visitor JWT signed with the site's key (`?jwt_token=` sets a cookie).
 * A site with adaptive content also reads a visitor JWT when given, and the unsigned claims its schema declares.
 */
export async function decideAudience(
  ctx: { em: EntityManager; config: KeyBoxConfig & { QUIRE_INTERNAL_SECRET: string } },
  site: ISite,
  req: AudienceRequest,
): Promise<AudienceDecision> {
  const cookies: string[] = [];
  let shareKey: string | null = null;
  if (site.visibility === 'share-link') {
    const given = req.query.share;
    shareKey = await resolveShareKey(ctx, site, given ?? req.cookies[SHARE_COOKIE]);
    if (!shareKey) return { kind: 'not-found' };
    if (given) cookies.push(cookie(SHARE_COOKIE, given, req));
  }
  let signed: Record<string, unknown> | null = null;
  if (site.visibility === 'visitor-auth' || site.adaptiveEnabled) {
    const given = req.query.jwt_token;
    const token = given ?? req.cookies[VISITOR_COOKIE];
    signed = token ? await verifyVisitorToken(ctx.em, site.id, token, ctx.config) : null;
    if (site.visibility === 'visitor-auth' && !signed) {
      return { kind: 'sign-in', location: (await visitorAuthUrls(ctx.em, site.id)).fallbackURL };
    }
    if (signed && given) cookies.push(cookie(VISITOR_COOKIE, given, req, 7 * 24 * 3600));
  }
  const unsigned = site.adaptiveEnabled ? unsignedClaims(site, req) : {};
  const claims: Record<string, unknown> = { ...(signed ?? {}), unsigned };
  const personal = signed !== null || Object.keys(unsigned).length > 0;
  return {
    kind: 'ok',
    audience: {
      visitor: { visitor: { claims } },
      shareKey,
      private: site.visibility === 'share-link' || site.visibility === 'visitor-auth' || personal,
      claimsHash: personal ? hashOf(claims) : 'anonymous',
      cookies,
    },
  };
}
