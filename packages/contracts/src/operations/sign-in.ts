import { z } from 'zod';
import { ActorSchema } from '../actor.ts';
import { operationsOf } from '../operation.ts';

const op = operationsOf('org-admin', { tags: ['sign-in'] });

const Strings = z.record(z.string(), z.string().max(8192));

/**
 * gateway → org-admin: one request of a person to the sign-in pages (`/login…`, `/logout`, `/account…`,
 * `/invites/…`, single sign-on's `/oidc/…` and `/saml/…`), answered with the whole HTTP response the gateway sends (a page or a redirect, with its
 * cookies). Internal: the gateway is the only public HTTP surface; sessions, links and invites are org-admin's.
 */
export const handleSignInRequest = op({
  id: 'signIn.resolveRequest',
  access: 'internal',
  type: 'mutation',
  input: z.object({
    method: z.enum(['GET', 'POST']).describe('The HTTP method'),
    path: z.string().max(2048).describe('The URL path, without the query'),
    query: Strings.describe('Query parameters (the first value of each)'),
    form: z
      .record(z.string(), z.string().max(200_000))
      .describe(
        'Fields of an application/x-www-form-urlencoded body (POST); 8192 characters each, a SAMLResponse 200000',
      ),
    cookies: Strings.describe('Cookies of the request'),
    address: z.string().max(256).describe('The client address, for rate limits and the sessions its owner sees'),
    userAgent: z
      .string()
      .max(512)
      .optional()
      .describe("The request's User-Agent (512 characters at most): a session started here shows its browser"),
  }),
  output: z.object({
    status: z.number().int().min(200).max(599).describe('HTTP status'),
    headers: Strings.describe('Response headers (content-type, cache-control, location, …)'),
    cookies: z.array(z.string()).describe('Set-Cookie values'),
    body: z.string().describe('The body (empty for redirects)'),
  }),
});

/**
 * gateway → org-admin: who holds this sign-in session (the `quire_session` cookie's value), for the app's calls to
 * `/v1` with the cookie instead of a bearer token. Answers the session's user as an actor and the session's CSRF
 * token (which the gateway requires in `X-Quire-CSRF` on every call that is not a GET), or nulls when the cookie is
 * unsigned, forged, ended, idle or expired. Renews the session's idle time like a sign-in page does.
 */
export const resolveSession = op({
  id: 'auth.resolveSession',
  access: 'internal',
  type: 'mutation',
  input: z.object({ cookie: z.string().min(1).max(4096).describe('The value of the `quire_session` cookie') }),
  output: z.object({
    actor: ActorSchema.nullable().describe('The signed-in user, null without a live session'),
    csrf: z.string().nullable().describe("The session's CSRF token, null without a live session"),
  }),
});
