import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { esc as escapeHtml } from '@quire/document/html';
import { z } from 'zod';
import { sendError } from './errors.ts';

const SCALAR_PACKAGE = '@scalar/api-reference';
const gzipAsync = promisify(gzip);

export interface ScalarBundle {
  version: string;
  /** Absolute path of the package's standalone browser bundle (its JS injects its own CSS). */
  file: string;
}

const scalarManifest = z.object({
  name: z.literal(SCALAR_PACKAGE),
  version: z.string().min(1),
  browser: z.string().min(1),
});

/**
 * Finds the standalone browser bundle of `@scalar/api-reference`: the file its package.json declares as
 * `browser`, located from wherever npm installed the package (the package exports no package.json, so
 * we resolve its entry point and walk up to its manifest).
 */
export function locateScalarBundle(): ScalarBundle {
  const entry = createRequire(import.meta.url).resolve(SCALAR_PACKAGE);
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifestPath = join(dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = scalarManifest.safeParse(JSON.parse(readFileSync(manifestPath, 'utf8')));
    if (manifest.success) return { version: manifest.data.version, file: resolve(dir, manifest.data.browser) };
  }
  throw new Error(`Could not find the package.json of ${SCALAR_PACKAGE} above ${entry}`);
}

/**
 * What Scalar is told. Everything that would reach beyond this machine is off: Scalar's hosted fonts,
 * telemetry, the "Ask AI" agent and MCP panel (api.scalar.com), and the developer toolbar (its sharing
 * uploads to api.scalar.com; it shows on localhost by default), and the "Open API Client" button (a link
 * to client.scalar.com that hands it our document's URL; "Test Request" opens the in-page client instead).
 * `proxyUrl` stays unset: without one the client sends requests straight to the API, not through
 * proxy.scalar.com.
 */
export const SCALAR_CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
} as const;

/** True when the client takes gzip (`Accept-Encoding`, honouring `q=0`). */
function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export interface DocsOptions {
  /** The API's public base URL (QUIRE_PUBLIC_URL): "Test request" calls go there, so CSP lets the page connect to it. */
  apiUrl?: string;
  bundle?: ScalarBundle;
}

/** The page's Content-Security-Policy: this origin only, and the API's public origin for "Test request" calls. */
function docsCsp(apiUrl: string | undefined): string {
  const connectSources = new Set(["'self'"]);
  if (apiUrl) connectSources.add(new URL(apiUrl).origin);
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Scalar injects its stylesheet as a <style> element and sets inline styles.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${[...connectSources].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Scalar's HTML API: it reads the configuration from this (non-executed) script element and mounts before it. */
function docsPage(assetPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<script id="api-reference" type="application/json" data-configuration="${escapeHtml(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
<script src="${assetPath}"></script>
</body>
</html>
`;
}

/** The bundle's bytes, raw and gzipped, read at the first request (again after a failed read). */
function bundleLoader(file: string): () => Promise<{ raw: Buffer; gzipped: Buffer }> {
  let loaded: Promise<{ raw: Buffer; gzipped: Buffer }> | undefined;
  return () =>
    (loaded ??= (async () => {
      const raw = await readFile(file);
      return { raw, gzipped: await gzipAsync(raw) };
    })().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
}

/**
 * `GET /docs`: the interactive API reference of `/v1/openapi.json`, rendered by Scalar from the bundle
 * in node_modules (served under `/docs/assets/`). No token needed; the page's CSP allows only this origin
 * (and the API's public origin for requests), so nothing is loaded from elsewhere.
 */
export function registerDocs(app: FastifyInstance, options: DocsOptions = {}): void {
  const bundle = options.bundle ?? locateScalarBundle();
  // Versioned name: a new Scalar version is a new URL, so the asset can be cached for good.
  const assetName = `scalar-api-reference-${bundle.version}.js`;
  const csp = docsCsp(options.apiUrl);
  const page = docsPage(`/docs/assets/${assetName}`);
  const load = bundleLoader(bundle.file);

  app.get('/docs', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', csp)
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(page),
  );

  app.get<{ Params: { name: string } }>('/docs/assets/:name', async (req, reply) => {
    if (req.params.name !== assetName) {
      return sendError(reply, {
        status: 404,
        reason: 'not_found',
        message: `No docs asset ${req.params.name}`,
        unexpected: false,
      });
    }
    const { raw, gzipped } = await load();
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff');
    if (acceptsGzip(req.headers['accept-encoding'])) return reply.header('content-encoding', 'gzip').send(gzipped);
    return reply.send(raw);
  });
}
