import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, instancePage } from '@quire/document/html';
import {
  HTTP_OPERATIONS,
  ops,
  READER_SITE_SPACES_MAX,
  sectionsOfStructure,
  type OperationInput,
  type OperationOutput,
  type Reader,
} from '@quire/contracts';
import {
  publicError,
  sha256Hex,
  toPublicError,
  verifyApiToken,
  type ApiTokenClaims,
  type PublicError,
  type ServiceClients,
} from '@quire/kit';
import { BUNDLED_FONTS, fontFiles } from '@quire/sites';
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
/** The sites' bundled fonts (`fonts/{slug}/{file}`): only the files the pages declare, from their npm packages. */
const requireHere = createRequire(import.meta.url);
const SITE_FONT = /^fonts\/([a-z0-9-]+)\/([a-z0-9-]+\.woff2)$/;
export function siteFontFile(name: string): string | null {
  const m = SITE_FONT.exec(name);
  const font = m ? BUNDLED_FONTS.get(m[1]!) : undefined;
  if (!m || !font || !fontFiles(font).some((f) => f.file === m[2])) return null;
  return join(dirname(requireHere.resolve(`${font.pkg}/package.json`)), 'files', m[2]!);
}

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

/** A page of the gateway's own when the sites service cannot answer: the instance's one layout. */
const errorPage = (status: number, message: string) =>
  instancePage({ title: String(status), body: html`<p>${message}</p>`, kind: 'error-page' }).value;

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
    // A site's MCP server (Streamable HTTP, stateless): `<site>/~gitbook/mcp` (docs/answers.md).
    const mcp = siteMcpHandler(deps.clients);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      scope.route({ method, url: '/sites/:basename/~gitbook/mcp', handler: mcp });
      scope.route({
        method,
        url: '/~gitbook/mcp',
        constraints: { host: siteHostPattern(deps.publicUrl) },
        handler: mcp,
      });
    }
    // A page's "Was this page helpful?" form (a plain form post, no JavaScript): `<site>/~rating`.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8192 },
      (_req, text, done) => done(null, Object.fromEntries(new URLSearchParams(text as string))),
    );
    scope.post('/sites/:basename/~rating', render);
    scope.route({
      method: 'POST',
      url: '/~rating',
      constraints: { host: siteHostPattern(deps.publicUrl) },
      handler: render,
    });
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

/** `GET /_quire/site/*`: the stylesheet and script of the pages, KaTeX's stylesheet and fonts, the sites' fonts. */
async function serveSiteAsset(
  load: (file: string) => Promise<Buffer>,
  req: FastifyRequest<{ Params: { '*': string } }>,
  reply: FastifyReply,
) {
  const name = req.params['*'];
  const asset = ASSETS[name];
  const font = FONT.exec(name);
  const siteFont = asset || font ? null : siteFontFile(name);
  if (!asset && !font && !siteFont)
    return sendError(reply, { status: 404, reason: 'not_found', message: 'No such site asset', unexpected: false });
  const file = asset?.file ?? siteFont ?? join(KATEX_DIR, 'fonts', font![1]!);
  const type = asset?.type ?? (siteFont ? 'font/woff2' : FONT_TYPES[font![2]!]!);
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
    if (req.method === 'POST') {
      input.method = 'POST';
      input.form = formFields(req.body);
    }
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

/** A request to a site's MCP server, answered by the sites service (its audience as for the site's pages). */
function siteMcpHandler(clients: ServiceClients) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = (q < 0 ? url : url.slice(0, q)).replace(/\/~gitbook\/mcp$/, '');
    const page = sitePageRequest(req, path || '/');
    const headers: Record<string, string> = {};
    for (const name of ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']) {
      const v = req.headers[name];
      if (typeof v === 'string') headers[name] = v.slice(0, 1024);
    }
    try {
      const res = await clients.asService(
        ops.handlePublishedSiteMcp,
        {
          host: page.host,
          path: page.path,
          query: page.query,
          cookies: page.cookies,
          method: req.method as 'GET' | 'POST' | 'DELETE',
          headers,
          body: req.body,
        },
        req.id,
      );
      if (res.kind === 'none')
        return sendError(reply, { status: 404, reason: 'not_found', message: 'No such site', unexpected: false });
      return reply.code(res.status).headers(res.headers).send(res.body);
    } catch (err) {
      req.log.warn({ err }, 'site MCP request failed');
      return sendError(reply, toPublicError(err));
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
    // For site insights (docs/published-sites.md): never stored, only hashed into the day's visitor pseudonym.
    doNotTrack: req.headers.dnt === '1' || req.headers['sec-gpc'] === '1',
    ...(typeof req.headers['user-agent'] === 'string' ? { userAgent: req.headers['user-agent'].slice(0, 1024) } : {}),
    clientAddress: req.ip.slice(0, 128),
  };
}

/** The string fields of a posted form (at most 20, each bounded), `{}` for anything else. */
function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>).slice(0, 20))
    if (typeof v === 'string' && k.length <= 200) out[k] = v.slice(0, 8192);
  return out;
}

// ——— the `apiToken` of a published-content lookup, as a bearer token ———

const JWT = /^Bearer\s+(eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/;

/** The claims of an api token this deployment signed (the kit's `verifyApiToken`), unexpired; null otherwise. */
export function verifyPublishedApiToken(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<(ApiTokenClaims & { exp: number }) | null> {
  return verifyApiToken(secret, token, now);
}

/** `METHOD /v1/…` as fastify registers the route (`routeUrlOf`) of every operation a reader may call (`access: reader`). */
function readerRoutes(): Set<string> {
  const out = new Set<string>();
  for (const op of HTTP_OPERATIONS) if (op.access === 'reader') out.add(`${op.http!.method} ${routeUrlOf(op.http!)}`);
  return out;
}

const READER_TTL_MS = 10_000;

/**
 * Accepts the `apiToken` a published-content lookup hands out (`GET|POST /v1/urls/published`) as a bearer token:
 * the call runs as a reader actor `{reader: {site, organization, siteSpaces, claims, shareKey}}`, and the services'
 * policies decide what it reads (sites: its own published site, its redirects and search; content: the live
 * content of the site spaces its site shows it, hidden pages left out, documents evaluated against its claims).
 * The gateway only authenticates: the token must be valid (a 401 otherwise), the route an operation open to
 * readers (`access: reader`, a 403 otherwise; an unknown route is the router's 404), and the site still publish
 * what the token names to this reader — asked of the sites service (a few seconds' cache), which also says which
 * site spaces the reader's claims show (a 404 when the token's own site space is no longer among them).
 */
export function registerPublishedContentReads(
  app: FastifyInstance,
  deps: { clients: ServiceClients; resolver: ActorResolver; secret: string; publicUrl: string },
): void {
  const routes = readerRoutes();
  const readerOf = publishedReaderResolver(deps.clients);

  /** Gives a request with a published-content token its reader's grant; true when it answered the request itself. */
  const asReader = async (req: FastifyRequest, reply: FastifyReply, jwt: string): Promise<boolean> => {
    const refuse = (err: PublicError) => (sendError(reply, err), true);
    const token = await verifyApiToken(deps.secret, jwt);
    if (!token) return refuse(publicError('unauthenticated', 'Invalid or expired API token'));
    if (req.routeOptions.url === undefined) return false;
    if (!routes.has(`${req.method} ${req.routeOptions.url}`))
      return refuse(publicError('forbidden', 'A published-content token only reads the published content of its site'));
    let reader: Reader | null;
    try {
      reader = await readerOf(token, req.id);
    } catch (err) {
      return refuse(toPublicError(err));
    }
    if (!reader) return refuse(publicError('not_found', 'Published content not found'));
    const grant = await deps.resolver.grant({ kind: 'reader', reader }, sha256Hex(jwt));
    req.headers.authorization = grant.authorization;
    reply.raw.once('close', grant.release);
    return false;
  };
  // Callback-style: a request without a published-content token (every other one) passes without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    const m = JWT.exec(req.headers.authorization ?? '');
    if (!m) return done();
    asReader(req, reply, m[1]!).then((answered) => {
      if (!answered) done();
    }, done);
  });
}

/** The reader of a token before the sites service said which site spaces it reads. */
const bareReader = (t: ApiTokenClaims): Reader => ({
  site: t.site,
  organization: t.organization,
  siteSpaces: [],
  claims: t.claims,
  ...(t.shareKey ? { shareKey: t.shareKey } : {}),
});

/** The site spaces of a published site's structure (as the sites service answered it for the reader). */
function siteSpacesOf(published: OperationOutput<typeof ops.getPublishedContentSite>): Reader['siteSpaces'] {
  const structure = published.structure;
  const siteSpaces =
    structure.type === 'sections'
      ? sectionsOfStructure(structure.structure).flatMap((s) => s.siteSpaces)
      : structure.structure;
  return siteSpaces.flatMap((t) => (t.space ? [{ id: t.id, space: t.space.id }] : []));
}

/**
 * The reader a token stands for: the site spaces the published site shows it (the sites service answers its
 * published structure for the reader's claims and share key), cached a few seconds per site, share key and claims;
 * null when the site no longer publishes the token's site space to it.
 */
function publishedReaderResolver(clients: ServiceClients) {
  const readers = new Map<string, { expires: number; reader: Reader | null }>();
  return async (t: ApiTokenClaims, requestId: string): Promise<Reader | null> => {
    const key = sha256Hex(JSON.stringify([t.site, t.organization, t.siteSpace, t.space, t.shareKey ?? '', t.claims]));
    const hit = readers.get(key);
    if (hit && hit.expires > Date.now()) return hit.reader;
    let reader: Reader | null;
    try {
      const bare = bareReader(t);
      const site = await clients
        .get('sites')
        .call(
          ops.getPublishedContentSite,
          { organizationId: t.organization, siteId: t.site, ...(t.shareKey ? { shareKey: t.shareKey } : {}) },
          { actorHeader: (await clients.sign({ kind: 'reader', reader: bare })).header, requestId },
        );
      const siteSpaces = siteSpacesOf(site);
      const own = siteSpaces.some((s) => s.id === t.siteSpace && s.space === t.space);
      reader = own ? { ...bare, siteSpaces: siteSpaces.slice(0, READER_SITE_SPACES_MAX) } : null;
    } catch (err) {
      if (toPublicError(err).reason !== 'not_found') throw err;
      reader = null;
    }
    if (readers.size > 10_000) readers.clear();
    readers.set(key, { expires: Date.now() + READER_TTL_MS, reader });
    return reader;
  };
}
