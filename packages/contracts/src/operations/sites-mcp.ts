import { z } from 'zod';
import { operationsOf } from '../operation.ts';

const op = operationsOf('sites', { tags: ['sites'] });

const Strings = z.record(z.string(), z.string().max(8192));

/**
 * gateway → sites: one request to a published site's MCP server (`<site>/~gitbook/mcp`: Streamable HTTP, stateless,
 * JSON responses), answered with the whole HTTP response. The site's audience applies as to its pages (`?share=`,
 * `?jwt_token=` or their cookies). Internal: the gateway is the only public HTTP surface.
 */
export const handlePublishedSiteMcp = op({
  id: 'publishedSiteMcp.resolve',
  access: 'internal',
  type: 'mutation',
  input: z.object({
    host: z.string().max(1024).describe('The Host header'),
    path: z.string().max(16_384).describe('The URL path of the site (without `/~gitbook/mcp`) and without the query'),
    query: Strings.describe('Query parameters (the first value of each)'),
    cookies: Strings.describe('Cookies of the request'),
    method: z.enum(['GET', 'POST', 'DELETE']).describe('The HTTP method'),
    headers: Strings.describe('The headers the transport reads (accept, content-type, mcp-protocol-version)'),
    body: z.unknown().optional().describe('The JSON-RPC message(s), parsed'),
  }),
  output: z.object({
    kind: z.enum(['response', 'none']).describe('`none`: no published site here'),
    status: z.number().int().min(200).max(599).describe('HTTP status'),
    headers: Strings.describe('Response headers'),
    body: z.string().describe('The body'),
  }),
});
