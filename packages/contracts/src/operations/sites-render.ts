import { z } from 'zod';
import { operationsOf } from '../operation.ts';

const op = operationsOf('sites', { tags: ['sites'] });

const Strings = z.record(z.string(), z.string().max(8192));

/**
 * gateway → sites: one request of a reader to a published site (`/sites/{basename}/…`, a custom hostname, a
 * proxy), answered with the whole HTTP response the gateway sends: an HTML page, the site's 404 page, a
 * redirect, `sitemap.xml`, `robots.txt`, `llms.txt`, a page as markdown. Internal: the gateway is the only
 * public HTTP surface, the sites service renders from the structure it owns and the content it reads.
 */
export const getPublishedSitePage = op({
  id: 'publishedSite.getPage',
  access: 'internal',
  type: 'query',
  input: z.object({
    host: z.string().max(1024).describe('The Host header'),
    path: z.string().max(16_384).describe('The URL path, percent-encoded as received, without the query'),
    query: Strings.describe('Query parameters (the first value of each)'),
    cookies: Strings.describe('Cookies of the request'),
    forwardedHost: z
      .string()
      .max(1024)
      .optional()
      .describe('X-Forwarded-Host, when a proxy (the site’s subdirectory) forwarded the request'),
    forwardedPrefix: z
      .string()
      .max(1024)
      .optional()
      .describe('X-Forwarded-Prefix: the path under which the proxy serves the site'),
    ifNoneMatch: z.string().max(1024).optional().describe('If-None-Match'),
    method: z.enum(['GET', 'POST']).optional().describe('The HTTP method (GET unless said): POST for a page rating'),
    form: Strings.optional().describe('The fields of a POSTed `application/x-www-form-urlencoded` form'),
    doNotTrack: z.boolean().optional().describe('Whether the request said `DNT: 1` or `Sec-GPC: 1`'),
    userAgent: z.string().max(1024).optional().describe('User-Agent (to tell robots from readers; never stored)'),
    clientAddress: z
      .string()
      .max(128)
      .optional()
      .describe('The client address, only hashed into the day’s visitor pseudonym (never stored)'),
  }),
  output: z.object({
    /** `none`: the request is not for a published site (another host): the gateway goes on routing it. */
    kind: z.enum(['response', 'none']).describe('Whether the request was for a published site'),
    status: z.number().int().min(200).max(599).describe('HTTP status'),
    headers: Strings.describe('Response headers (content-type, cache-control, etag, location, …)'),
    cookies: z.array(z.string()).describe('Set-Cookie values'),
    body: z.string().describe('The body (empty for redirects and 304)'),
  }),
});
