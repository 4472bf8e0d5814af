import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ops } from '@quire/contracts';
import { html, instancePage } from '@quire/document/html';
import { toPublicError, type CallContext, type ServiceClients } from '@quire/kit';
import type { ActorResolver } from './auth.ts';
import { parseCookies, siteHostPattern } from './published.ts';

/**
 * The sign-in pages (`/login`, `/login/verify`, `/invites/accept`, `/account…`, `/logout`), served by the
 * gateway and rendered by org-admin, which owns sessions, sign-in links and invites: each request goes to
 * `signIn.resolveRequest` and its answer (page or redirect, with cookies) is sent as it is. Forms are
 * `application/x-www-form-urlencoded`, parsed within this plugin only.
 */
const MAX_FORM_BYTES = 16 * 1024;
/** A SAML identity provider's POST to the assertion consumer service carries a whole signed response. */
const MAX_SAML_FORM_BYTES = 256 * 1024;
const MAX_SAML_RESPONSE_CHARS = 200_000;

const clip = (o: Record<string, unknown>) => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    const s = typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
    if (s !== undefined && k.length <= 200) out[k] = s.slice(0, k === 'SAMLResponse' ? MAX_SAML_RESPONSE_CHARS : 8192);
  }
  return out;
};

const errorPage = (status: number) =>
  instancePage({
    title: 'Sign in unavailable',
    body: html`<p>This page cannot be shown right now (${status}). Try again in a moment.</p>`,
    kind: 'error-page',
  }).value;

/**
 * On a published site's own hostname these paths are the site's pages (`docs.acme.io/login`), not the sign-in:
 * the routes only match the other hosts.
 */
export const instanceHostPattern = (publicUrl: string) => new RegExp(`^(?!${siteHostPattern(publicUrl).source})`, 'i');

/** What org-admin is asked about one request to the sign-in pages (query, form and cookies clipped). */
function signInInput(req: FastifyRequest) {
  const q = req.url.indexOf('?');
  const path = (q < 0 ? req.url : req.url.slice(0, q)).slice(0, 2048);
  const body = req.method === 'POST' && req.body && typeof req.body === 'object' ? req.body : {};
  return {
    method: req.method === 'POST' ? ('POST' as const) : ('GET' as const),
    path,
    query: clip((req.query ?? {}) as Record<string, unknown>),
    form: clip(body as Record<string, unknown>),
    cookies: clip(parseCookies(req.headers.cookie)),
    address: req.ip.slice(0, 256),
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 512),
  };
}

/**
 * Sends org-admin's answer (page or redirect, with cookies) as it is; an error page when there is none. The events
 * the request committed reach the resolver at once, as a forwarded API call's do: a token made on `/account` is
 * known to this gateway (`known-tokens.ts`) before its owner can copy it, not only once the bus delivers it.
 */
const signInHandler = (deps: SignInDeps) => async (req: FastifyRequest, reply: FastifyReply) => {
  try {
    const seen: Pick<CallContext, 'events'> = {};
    const res = await deps.clients.asService(ops.handleSignInRequest, signInInput(req), req.id, seen);
    if (seen.events?.length) deps.resolver.evictFor(seen.events);
    reply.code(res.status).headers(res.headers);
    if (res.cookies.length) reply.header('set-cookie', res.cookies);
    return reply.send(res.body);
  } catch (err) {
    const status = Math.max(toPublicError(err).status, 500);
    req.log.warn({ err }, 'sign-in request failed');
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(errorPage(status));
  }
};

interface SignInDeps {
  clients: ServiceClients;
  resolver: Pick<ActorResolver, 'evictFor'>;
  publicUrl: string;
}

export function registerSignIn(app: FastifyInstance, deps: SignInDeps): void {
  const handle = signInHandler(deps);
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
      (_req, text, done) => done(null, Object.fromEntries(new URLSearchParams(text as string))),
    );
    // Every route on the instance's own host only.
    const onInstance = { constraints: { host: instanceHostPattern(deps.publicUrl) }, handler: handle };
    // Single sign-on: OpenID Connect (start, callback) and SAML (SP metadata, start, assertion consumer service).
    for (const url of [
      '/oidc/:providerId/start',
      '/oidc/:providerId/callback',
      '/saml/:providerId/start',
      '/saml/:providerId/metadata',
    ])
      scope.route({ method: 'GET', url, ...onInstance });
    scope.route({ method: 'POST', url: '/saml/:providerId/acs', bodyLimit: MAX_SAML_FORM_BYTES, ...onInstance });
    for (const url of ['/login', '/login/verify', '/invites/accept', '/sso/link', '/account'])
      scope.route({ method: 'GET', url, ...onInstance });
    for (const url of [
      '/login',
      '/login/verify',
      '/invites/accept',
      '/account/tokens',
      '/account/tokens/revoke',
      '/account/sessions/revoke',
      '/account/sessions/revoke-others',
      '/account/invites/accept',
      '/logout',
      // The signed-in owner's confirmation of a link asked for by an identity provider (docs/sign-in.md).
      '/sso/link',
    ])
      scope.route({ method: 'POST', url, ...onInstance });
  });
}
