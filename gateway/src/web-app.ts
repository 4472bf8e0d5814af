import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, instancePage } from '@quire/document/html';
import type { Logger, ServiceClients } from '@quire/kit';
import { sessionOfRequest } from './session-auth.ts';
import { instanceHostPattern } from './sign-in.ts';

/**
 * The writers' app (`app/`, built by Vite into `app/dist` when `npm ci` runs the root `prepare` script): its
 * HTML at every `urls.app` the API returns (`/o/{org}/…`), at `/` and at the account's two tabs, its hashed assets
 * under `/_quire/app/`, all from this gateway, with a CSP that allows scripts, styles and calls from this origin only. A visitor
 * without a live session is sent to `/login?next=…`; a signed-in one gets the HTML with the session's CSRF token
 * in `<meta name="quire-csrf">`, which the app sends back in `X-Quire-CSRF` (see session-auth.ts).
 */
export const APP_DIST = fileURLToPath(new URL('../../app/dist/', import.meta.url));
export const APP_BASE = '/_quire/app/';

/**
 * `'wasm-unsafe-eval'`: the Page screen highlights code with the published site's renderer, whose highlighter (shiki)
 * compiles its regular-expression engine (Oniguruma) to WebAssembly; it allows compiling WebAssembly only, not `eval`.
 */
const CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob: https:; font-src 'self'; " +
  "frame-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const CSRF_MARKER = '<meta name="quire-csrf" content="">';

interface Asset {
  type: string;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** An asset of the build, read from disk (with its compressed copies) the first time it is asked for, then kept. */
type LazyAsset = () => Asset;

/**
 * The built app: its HTML read at start, each asset named at start (nothing else is served) and read into memory on
 * first use — the build holds hundreds of chunks (the code highlighter's languages) a browser may never ask for —,
 * compressed ahead; null when not built.
 */
export function loadAppBuild(dir = APP_DIST): { html: string; assets: Map<string, LazyAsset> } | null {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return null;
  const assets = new Map<string, LazyAsset>();
  const assetsDir = join(dir, 'assets');
  const names = existsSync(assetsDir) ? readdirSync(assetsDir) : [];
  const built = new Set(names);
  for (const name of names) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    let asset: Asset | undefined;
    assets.set(name, () => {
      if (asset) return asset;
      const raw = readFileSync(join(assetsDir, name));
      // The build writes each asset compressed beside it (app/vite.config.ts); a build without them is compressed
      // here at settings that keep a first answer quick (brotli's default quality 11 took 4.3 s for the whole app).
      const ahead = (ext: string) =>
        built.has(`${name}${ext}`) ? readFileSync(join(assetsDir, `${name}${ext}`)) : null;
      asset = {
        type: TYPES[extname(name)] ?? 'application/octet-stream',
        raw,
        gzip: ahead('.gz') ?? gzipSync(raw, { level: 6 }),
        br: ahead('.br') ?? brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
      };
      return asset;
    });
  }
  return { html: readFileSync(index, 'utf8'), assets };
}

/** The asset, or undefined when unknown or gone from disk since the start (a build replaced under a running instance). */
function assetOf(lazy: LazyAsset | undefined): Asset | undefined {
  try {
    return lazy?.();
  } catch {
    return undefined;
  }
}

/** The page answered while the app is not built (503): the instance's one layout. */
const notBuilt = instancePage({
  title: 'The app is not built',
  body: html`<p>Run <code>npm run build -w @quire/app</code> (or <code>npm ci</code>, which builds it), then restart Quire.</p>`,
  kind: 'error-page',
}).value;

/** Sends an asset, brotli or gzip when the client takes it; hashed names are cached for a year. */
function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  const accept = String(req.headers['accept-encoding'] ?? '');
  reply
    .type(asset.type)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('x-content-type-options', 'nosniff')
    .header('vary', 'accept-encoding');
  if (/\bbr\b/.test(accept)) return reply.header('content-encoding', 'br').send(asset.br);
  if (/\bgzip\b/.test(accept)) return reply.header('content-encoding', 'gzip').send(asset.gzip);
  return reply.send(asset.raw);
}

export function registerWebApp(
  app: FastifyInstance,
  deps: { clients: ServiceClients; publicUrl: string; log: Logger; dist?: string },
): void {
  const build = loadAppBuild(deps.dist);
  if (!build) deps.log.warn({ dir: deps.dist ?? APP_DIST }, 'the app is not built: run `npm run build -w @quire/app`');
  const onInstance = { host: instanceHostPattern(deps.publicUrl) };

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!build) return reply.code(503).headers(HTML_HEADERS).send(notBuilt);
    const session = await sessionOfRequest(deps.clients, req);
    if (!session) {
      const next = req.url.length <= 2048 ? req.url : '/';
      return reply.header('cache-control', 'no-store').redirect(`/login?next=${encodeURIComponent(next)}`, 303);
    }
    return reply
      .code(200)
      .headers(HTML_HEADERS)
      .send(build.html.replace(CSRF_MARKER, html`<meta name="quire-csrf" content="${session.csrf}">`.value));
  };
  // The user's own tokens and sessions are the app's at `/account/developer` and `/account/sessions`; `/account` itself
  // is the server-rendered page (sign-in.ts), which works without JavaScript. An integration's `urls.app` is
  // `/integrations/{name}`.
  for (const url of ['/', '/o', '/o/*', '/account/developer', '/account/sessions', '/integrations/:name'])
    app.route({ method: 'GET', url, constraints: onInstance, handler: page });
  // The outbox is the instance admin's, who may have no account to sign in with yet (no SMTP, no link): its page
  // needs no session; it asks for the instance admin token and calls `/v1/admin/outbox` with it.
  app.route({
    method: 'GET',
    url: '/admin/outbox',
    constraints: onInstance,
    handler: async (_req, reply) => {
      if (!build) return reply.code(503).headers(HTML_HEADERS).send(notBuilt);
      return reply.code(200).headers(HTML_HEADERS).send(build.html);
    },
  });

  app.route({
    method: 'GET',
    url: `${APP_BASE}assets/:name`,
    handler: async (req, reply) => {
      const asset = assetOf(build?.assets.get((req.params as { name: string }).name));
      if (!asset)
        return reply
          .code(404)
          .type('application/json; charset=utf-8')
          .send({ error: { code: 404, message: 'No such asset' } });
      return sendAsset(req, reply, asset);
    },
  });
}
