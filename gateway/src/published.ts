import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  HTTP_OPERATIONS,
  ops,
  sectionsOfStructure,
  type Actor,
  type OperationInput,
  type OperationOutput,
} from '@quire/contracts';
import { publicError, sha256Hex, toPublicError, verifyApiToken, type ServiceClients } from '@quire/kit';
import type { ActorResolver } from './auth.ts';
import { sendError } from './errors.ts';
import { routeUrlOf } from './rest.ts';

/**
 * Published sites, served by the gateway (the only public HTTP surface) and rendered by the sites service:
 * `/sites/{basename}/…` on any host, and every path of a site's custom hostname (routed by `Host`; the
 * gateway's own paths — `/v1`, `/docs`, `/healthz`, `/metrics`, `/_quire` — stay the gateway's there). The
 * stylesheet, script and KaTeX files of the pages are served here too, so a page loads nothing from
 * elsewhere. Responses are compressed (`@fastify/compress`) within this plugin only.
 */
const ASSETS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'site-assets');
const KATEX_DIR = join(dirname(createRequire(import.meta.url).resolve('katex/package.json')), 'dist');
const ASSETS: Record<string, { file: string; type: string }> = {
  'site-v1.css': { file: join(ASSETS_DIR, 'site.css'), type: 'text/css; charset=utf-8' },
  'site-v1.js': { file: join(ASSETS_DIR, 'site.js'), type: 'text/javascript; charset=utf-8' },
  'katex/katex.min.css': { file: join(KATEX_DIR, 'katex.min.css'), type: 'text/css; charset=utf-8' },
};
const FONT = /^katex\/fonts\/(KaTeX_[A-Za-z0-9_-]+\.(woff2|woff|ttf))$/;
const FONT_TYPES: Record<string, string> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf' };

const one = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

/** `a=1; b=2` → `{a: '1', b: '2'}` (the first of a repeated name; undecodable values kept as sent). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    if (!name || Object.hasOwn(out, name)) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '');
    try {
      out[name] = decodeURIComponent(raw);
    } catch {
      out[name] = raw;
    }
  }
  return out;
}

/** The hosts routed to published sites: names of three labels or more, other than the instance's own host. */
export function siteHostPattern(publicUrl: string): RegExp {
  const own = new URL(publicUrl).hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^(?!${own}(?::\\d+)?$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.){2,}[a-z][a-z0-9-]{0,61}[a-z0-9](?::\\d+)?$`,
    'i',
  );
}

const errorPage = (status: number, message: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${status}</title><link rel="stylesheet" href="/_quire/site/site-v1.css"></head>` +
  `<body><main id="content" class="error-page"><h1>${status}</h1><p>${message}</p></main></body></html>`;

export function registerPublishedSites(
  app: FastifyInstance,
  deps: { clients: ServiceClients; publicUrl: string },
): void {
  const load = assetLoader();
  // Fail at start rather than at the first reader: the files must be there.
  for (const a of Object.values(ASSETS)) readFileSync(a.file, { flag: 'r' });
  const render = sitePageRenderer(deps.clients);

  void app.register(async (scope) => {
    await scope.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
    scope.get<{ Params: { '*': string } }>('/_quire/site/*', async (req, reply) => serveSiteAsset(load, req, reply));
    scope.get('/sites/:basename', render);
    scope.get('/sites/:basename/*', render);
    scope.route({ method: 'GET', url: '/*', constraints: { host: siteHostPattern(deps.publicUrl) }, handler: render });
    scope.route({ method: 'GET', url: '/', constraints: { host: siteHostPattern(deps.publicUrl) }, handler: render });
  });
}

/** The site asset files, each read once (again after a failed read). */
function assetLoader(): (file: string) => Promise<Buffer> {
  const assets = new Map<string, Promise<Buffer>>();
  return (file: string) => {
    let p = assets.get(file);
    if (!p) {
      p = readFile(file);
      p.catch(() => assets.delete(file));
      assets.set(file, p);
    }
    return p;
  };
}

/** `GET /_quire/site/*`: the stylesheet and script of the pages, and KaTeX's stylesheet and fonts. */
async function serveSiteAsset(
  load: (file: string) => Promise<Buffer>,
  req: FastifyRequest<{ Params: { '*': string } }>,
  reply: FastifyReply,
) {
  const name = req.params['*'];
  const asset = ASSETS[name];
  const font = FONT.exec(name);
  if (!asset && !font)
    return sendError(reply, { status: 404, reason: 'not_found', message: 'No such site asset', unexpected: false });
  const file = asset?.file ?? join(KATEX_DIR, 'fonts', font![1]!);
  const type = asset?.type ?? FONT_TYPES[font![2]!]!;
  try {
    const body = await load(file);
    return reply
      .type(type)
      .header('cache-control', asset ? 'public, max-age=3600' : 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  } catch {
    return sendError(reply, { status: 404, reason: 'not_found', message: 'No such site asset', unexpected: false });
  }
}

/** A page of a published site, rendered by the sites service: its answer as given, a 404, or an error page. */
function sitePageRenderer(clients: ServiceClients) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const input = sitePageRequest(req, path);
    try {
      const res = await clients.asService(ops.getPublishedSitePage, input, req.id);
      if (res.kind === 'none')
        return sendError(reply, {
          status: 404,
          reason: 'not_found',
          message: `No route ${req.method} ${path}`,
          unexpected: false,
        });
      reply.code(res.status).headers(res.headers);
      if (res.cookies.length) reply.header('set-cookie', res.cookies);
      return reply.send(res.body);
    } catch (err) {
      const pub = toPublicError(err);
      req.log.warn({ err }, 'published site request failed');
      const status = pub.status >= 500 ? pub.status : 500;
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(errorPage(status, 'This page cannot be shown right now. Try again in a moment.'));
    }
  };
}

/** What the sites service is asked to render: host, path, query, cookies and the headers it reads, each bounded. */
function sitePageRequest(req: FastifyRequest, path: string): OperationInput<typeof ops.getPublishedSitePage> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    const s = one(v);
    if (s !== undefined && k.length <= 200) query[k] = s.slice(0, 8192);
  }
  const cookies = parseCookies(req.headers.cookie);
  return {
    host: (req.headers.host ?? '').slice(0, 1024),
    path: path.slice(0, 16_384),
    query,
    cookies: Object.fromEntries(Object.entries(cookies).map(([k, v]) => [k.slice(0, 200), v.slice(0, 8192)])),
    ...(typeof req.headers['x-forwarded-host'] === 'string'
      ? { forwardedHost: req.headers['x-forwarded-host'].slice(0, 1024) }
      : {}),
    ...(typeof req.headers['if-none-match'] === 'string'
      ? { ifNoneMatch: req.headers['if-none-match'].slice(0, 1024) }
      : {}),
  };
}

// ——— the `apiToken` of a published-content lookup, as a bearer token ———

/** The claims of an api token (signed by the sites service with the kit's `signApiToken`). */
export interface PublishedApiToken {
  site: string;
  organization: string;
  siteSpace: string;
  space: string;
  shareKey?: string;
  exp: number;
}

const JWT = /^Bearer\s+(eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An api token this deployment signed (the kit's `verifyApiToken`: HS256, its issuer, its audience, not expired),
 * naming a site, its organization, a site space and a space by well-formed ids; null otherwise.
 */
export async function verifyPublishedApiToken(
  secret: string,
  issuer: string,
  token: string,
  now = Date.now(),
): Promise<PublishedApiToken | null> {
  const c = await verifyApiToken(secret, issuer, token, new Date(now));
  if (!c || typeof c.exp !== 'number') return null;
  const ids = [c.site, c.organization, c.siteSpace, c.space];
  if (!ids.every((v) => typeof v === 'string' && ID.test(v))) return null;
  if (c.shareKey !== undefined && typeof c.shareKey !== 'string') return null;
  return {
    site: c.site,
    organization: c.organization,
    siteSpace: c.siteSpace,
    space: c.space,
    ...(typeof c.shareKey === 'string' ? { shareKey: c.shareKey } : {}),
    exp: c.exp,
  };
}

/**
 * What an api token may call — the reads GitBook's renderer makes (docs/spec/renderer-api.md) — and what
 * it is checked against: `site` (its organization and site), `space` (its own space, the one the lookup resolved
 * for the visitor), `revision` (its space, and that space's live revision only: no change request's content).
 */
const RENDERER_READS: Record<string, 'site' | 'space' | 'revision'> = {
  getPublishedContentSite: 'site',
  getSiteRedirectBySource: 'site',
  searchSiteContent: 'site',
  getSpaceById: 'space',
  getCurrentRevision: 'space',
  listPages: 'space',
  getPageById: 'space',
  getPageByPath: 'space',
  listFiles: 'space',
  getFileById: 'space',
  getRevisionById: 'revision',
  listPagesInRevisionById: 'revision',
  getPageInRevisionById: 'revision',
  getPageInRevisionByPath: 'revision',
  listFilesInRevisionById: 'revision',
  getFileInRevisionById: 'revision',
};

/** `METHOD /v1/…` as fastify registers the route (`routeUrlOf`) → its scope. */
function rendererRoutes(): Map<string, 'site' | 'space' | 'revision'> {
  const out = new Map<string, 'site' | 'space' | 'revision'>();
  for (const op of HTTP_OPERATIONS) {
    const scope = RENDERER_READS[op.http!.operationId];
    if (!scope) continue;
    out.set(`${op.http!.method} ${routeUrlOf(op.http!)}`, scope);
  }
  return out;
}

type PublishedSite = OperationOutput<typeof ops.getPublishedContentSite>;
const PUBLISHED_TTL_MS = 10_000;

/** The live revision of each space the published site shows (hidden site spaces are not in it). */
function liveRevisions(published: PublishedSite): Map<string, string> {
  const out = new Map<string, string>();
  const structure = published.structure;
  const siteSpaces =
    structure.type === 'sections'
      ? sectionsOfStructure(structure.structure).flatMap((s) => s.siteSpaces)
      : structure.structure;
  for (const t of siteSpaces) if (t.space) out.set(t.space.id, t.space.revision);
  return out;
}

/**
 * Accepts the `apiToken` a published-content lookup hands out (`GET|POST /v1/urls/published`) as a bearer token
 * for the reads a renderer makes, and for nothing else: read-only, scoped to the site it names — its published
 * structure, its redirects, a search of its own site space, and its space's live content — and only while the
 * token is valid (an hour at most), the site published and, for a share-link site, its share link active. The
 * call then runs as a reader of the site's organization (`published-content:<site>`), which the route checks
 * here keep to that scope. Any other route answers 403; a token that is not valid, 401.
 */
export function registerPublishedContentReads(
  app: FastifyInstance,
  deps: { clients: ServiceClients; resolver: ActorResolver; secret: string; publicUrl: string },
): void {
  const issuer = deps.publicUrl.replace(/\/+$/, '');
  const routes = rendererRoutes();
  const siteOf = publishedSiteReader(deps.clients);
  const searchOf = new WeakMap<FastifyRequest, string>();

  app.addHook('onRequest', async (req, reply) => {
    const m = JWT.exec(req.headers.authorization ?? '');
    if (!m) return;
    const token = await verifyPublishedApiToken(deps.secret, issuer, m[1]!);
    if (!token) return sendError(reply, publicError('unauthenticated', 'Invalid or expired API token'));
    const scope = routes.get(`${req.method} ${req.routeOptions.url}`);
    if (!scope)
      return sendError(
        reply,
        publicError('forbidden', 'A published-content token only reads the published content of its site'),
      );
    let spaces: Map<string, string> | null;
    try {
      spaces = await siteOf(token, req.id);
    } catch (err) {
      return sendError(reply, toPublicError(err));
    }
    const params = (req.params ?? {}) as Record<string, string | undefined>;
    if (!withinTokenScope(scope, token, params, spaces))
      return sendError(reply, publicError('not_found', 'Published content not found'));
    if (req.routeOptions.url?.endsWith('/search')) searchOf.set(req, token.siteSpace);
    const grant = await deps.resolver.grant(publishedContentActor(token), sha256Hex(m[1]!));
    req.headers.authorization = grant.authorization;
    reply.raw.once('close', grant.release);
  });

  // A token's search covers its own site space: the one the lookup resolved for the visitor's claims.
  app.addHook('preHandler', async (req) => {
    const siteSpace = searchOf.get(req);
    if (!siteSpace || !req.body || typeof req.body !== 'object' || Array.isArray(req.body)) return;
    const { mode: _mode, siteSpaceId: _one, siteSpaceIds: _many, ...body } = req.body as Record<string, unknown>;
    req.body = { ...body, scope: { mode: 'specific', siteSpaceIds: [siteSpace] } };
  });
}

/** Who a token's call runs as: a reader of the site's organization. */
const publishedContentActor = (t: PublishedApiToken): Actor => ({
  kind: 'user',
  userId: `published-content:${t.site}`,
  memberships: [{ organization: t.organization, role: 'read', teams: [] }],
});

/**
 * The spaces of the published site a token names and their live revisions, cached a few seconds; null when it is
 * not (or no longer) readable.
 */
function publishedSiteReader(clients: ServiceClients) {
  const published = new Map<string, { expires: number; spaces: Map<string, string> | null }>();
  return async (t: PublishedApiToken, requestId: string) => {
    const key = `${t.site}|${t.shareKey ?? ''}`;
    const hit = published.get(key);
    if (hit && hit.expires > Date.now()) return hit.spaces;
    let spaces: Map<string, string> | null;
    try {
      const site = await clients
        .get('sites')
        .call(
          ops.getPublishedContentSite,
          { organizationId: t.organization, siteId: t.site, ...(t.shareKey ? { shareKey: t.shareKey } : {}) },
          { actorHeader: (await clients.sign(publishedContentActor(t))).header, requestId },
        );
      spaces = liveRevisions(site);
    } catch (err) {
      if (toPublicError(err).reason !== 'not_found') throw err;
      spaces = null;
    }
    if (published.size > 10_000) published.clear();
    published.set(key, { expires: Date.now() + PUBLISHED_TTL_MS, spaces });
    return spaces;
  };
}

/** Whether a call in `scope` with these path parameters stays within the site, space and live revision of the token. */
function withinTokenScope(
  scope: 'site' | 'space' | 'revision',
  token: PublishedApiToken,
  params: Record<string, string | undefined>,
  spaces: Map<string, string> | null,
): boolean {
  if (!spaces?.has(token.space)) return false;
  if (scope === 'site' && (params.organizationId !== token.organization || params.siteId !== token.site)) return false;
  if (scope !== 'site' && params.spaceId !== token.space) return false;
  if (scope === 'revision' && params.revisionId !== spaces.get(token.space)) return false;
  return true;
}
