import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import type { OperationInput, OperationOutput, ops } from '@quire/contracts';
import type { SitesContext } from '../../trpc.ts';
import { decideAudience } from '../published/audience.ts';
import { handlePublishedRequest } from '../published/handler.ts';
import { llmsTxt } from '../published/machines.ts';
import { matchPublishedSite } from '../published/resolve-url.ts';
import { searchSite } from '../published/search-page.ts';
import { publishedSiteSnapshot } from '../published/site-cache.ts';
import { siteUrlOf, type SiteView } from '../published/site-view.ts';

type Input = OperationInput<typeof ops.handlePublishedSiteMcp>;
type Output = OperationOutput<typeof ops.handlePublishedSiteMcp>;

const NONE: Output = { kind: 'none', status: 404, headers: {}, body: '' };
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const failed = (t: string) => ({ content: [{ type: 'text' as const, text: t }], isError: true });
const SEARCH_HITS_MAX = 10;

/** The `search` tool: the site's search in the visitor's audience, each hit with its URL and excerpts. */
async function searchTool(v: SiteView, query: string) {
  const hits = (await searchSite(v, query)).slice(0, SEARCH_HITS_MAX);
  if (!hits.length) return text(`No page matches "${query}".`);
  const url = (href: string) => new URL(href, v.siteUrl).toString();
  return text(
    hits
      .map((h) =>
        [`## ${h.title}`, url(h.href), ...h.excerpts.map((e) => `- ${e.title}: ${e.body.replace(/\s+/g, ' ')}`)].join(
          '\n',
        ),
      )
      .join('\n\n'),
  );
}

/** The `read_page` tool: the page's markdown (`<page>.md`) as the site serves it to this visitor. */
async function readPageTool(ctx: SitesContext, input: Input, v: SiteView, url: string) {
  let path = url;
  try {
    const u = new URL(url, `${v.siteUrl}/`);
    path = u.pathname;
  } catch {
    return failed('Not a page URL');
  }
  const base = new URL(`${v.siteUrl}/`).pathname.replace(/\/$/, '');
  if (base && path.startsWith(base)) path = path.slice(base.length);
  path = path.replace(/\/+$/, '').replace(/^\/+/, '');
  const md = path.endsWith('.md') ? path : `${path || 'index'}.md`;
  const res = await handlePublishedRequest(ctx, {
    host: input.host,
    path: `${v.siteBasePath}/${md}`,
    query: input.query,
    cookies: input.cookies,
  });
  if (res.kind !== 'response' || res.status !== 200 || !res.headers['content-type']?.startsWith('text/markdown'))
    return failed(`No page at ${url}`);
  return text(res.body);
}

/** A site's MCP server for one visitor: search, list and read what its pages show that visitor, nothing else. */
function siteServer(ctx: SitesContext, input: Input, v: SiteView): McpServer {
  const server = new McpServer({ name: `quire-site-${v.site.id}`, version: '1.0.0' });
  server.registerTool(
    'search',
    {
      description: `Search the published documentation "${v.site.title}": matching pages with their URLs and excerpts`,
      inputSchema: { query: z.string().min(1).max(200).describe('What to search for') },
    },
    async ({ query }) => searchTool(v, query),
  );
  server.registerTool(
    'list_pages',
    { description: `The pages of "${v.site.title}", each with the URL of its markdown (llms.txt)`, inputSchema: {} },
    async () => text(await llmsTxt(v)),
  );
  server.registerTool(
    'read_page',
    {
      description: 'A page as markdown, by the URL list_pages gives (or its path on the site)',
      inputSchema: { url: z.string().min(1).max(2048).describe('The page URL (its `.md` URL) or path on the site') },
    },
    async ({ url }) => readPageTool(ctx, input, v, url),
  );
  return server;
}

/**
 * One request to a published site's MCP server (`<site>/~gitbook/mcp`): the site from the host and path, the
 * visitor's audience exactly as for its pages (a share-link site without its key, or a visitor-auth site without a
 * visitor token, is a 404), then the MCP Streamable HTTP transport, stateless, answering JSON.
 */
export async function handleSiteMcp(ctx: SitesContext, input: Input): Promise<Output> {
  const match = await matchPublishedSite({ host: input.host, path: input.path, publicBase: ctx.urls.base }, (by) =>
    publishedSiteSnapshot(ctx.em, by),
  );
  // A site whose owner keeps it out of agents' context (`agentsContext: excluded`, no llms.txt) has no MCP server.
  if (!match || match.segments.length || match.site.agentsContext === 'excluded') return NONE;
  const secure = ctx.urls.base.startsWith('https:') || match.siteBasePath === '';
  const decision = await decideAudience(ctx, match.site, {
    query: input.query,
    cookies: input.cookies,
    siteBasePath: match.siteBasePath,
    secure,
  });
  if (decision.kind !== 'ok') return NONE;
  const v: SiteView = {
    site: match.site,
    tree: match.tree,
    siteBasePath: match.siteBasePath,
    siteUrl: siteUrlOf(ctx.urls, match.site),
    audience: decision.audience,
    log: (condition, error) => ctx.log.warn({ site: match.site.id, condition, error }, 'site MCP: condition not shown'),
    peers: ctx.peers,
    requestId: ctx.requestId,
    urls: ctx.urls,
    proxied: false,
  };
  // Stateless: no stream opened by the server (GET) and no session to end (DELETE).
  if (input.method !== 'POST')
    return {
      kind: 'response',
      status: 405,
      headers: { allow: 'POST', 'content-type': 'application/json', 'cache-control': 'no-store' },
      body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null }),
    };
  const server = siteServer(ctx, input, v);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const request = new Request(`${v.siteUrl}/~gitbook/mcp`, {
      method: input.method,
      headers: input.headers,
      ...(input.method === 'POST' ? { body: JSON.stringify(input.body ?? null) } : {}),
    });
    const res = await transport.handleRequest(request, { parsedBody: input.body });
    const headers: Record<string, string> = { 'cache-control': 'no-store' };
    res.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return { kind: 'response', status: res.status, headers, body: await res.text() };
  } finally {
    await server.close();
  }
}
