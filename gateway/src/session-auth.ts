import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ops, type Actor } from '@quire/contracts';
import { publicError, sha256Hex, type ServiceClients } from '@quire/kit';
import type { ActorResolver } from './auth.ts';
import { sendError } from './errors.ts';
import { parseCookies } from './published.ts';

/** The sign-in session's cookie (set by the sign-in pages, org-admin's). */
export const SESSION_COOKIE = 'quire_session';
/** The header carrying the session's CSRF token on every `/v1` call with the cookie that is not a GET. */
export const CSRF_HEADER = 'x-quire-csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface LiveSession {
  actor: Actor;
  csrf: string;
  /** The rate-limit key of the session (SHA-256 of its cookie). */
  key: string;
}

/** The live session of a request's cookie, asked of org-admin each time (signing out ends it at once). */
export async function sessionOfRequest(clients: ServiceClients, req: FastifyRequest): Promise<LiveSession | null> {
  const cookie = parseCookies(req.headers.cookie)[SESSION_COOKIE];
  if (!cookie || cookie.length > 4096) return null;
  const { actor, csrf } = await clients.asService(ops.resolveSession, { cookie }, req.id);
  if (!actor || !csrf) return null;
  return { actor, csrf, key: `session:${sha256Hex(cookie)}` };
}

/** Constant-time comparison of the header's token with the session's. */
function csrfMatches(header: string | string[] | undefined, expected: string): boolean {
  if (typeof header !== 'string') return false;
  const a = Buffer.from(header);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The app's calls to `/v1` with the sign-in session cookie instead of a bearer token. A request without an
 * `Authorization` header whose cookie is a live session runs as that session's user: the gateway resolves the
 * session (org-admin), requires the session's CSRF token in `X-Quire-CSRF` unless the method is GET/HEAD, and
 * hands the REST route a one-request grant of the actor (`ActorResolver.grant`), rate-limited per session. A
 * request with an `Authorization` header is left alone (bearer tokens work as before); one with no live session
 * stays anonymous (the route answers 401 where it needs a caller).
 */
export function registerSessionAuth(
  app: FastifyInstance,
  deps: { clients: ServiceClients; resolver: ActorResolver },
): void {
  /** Whether it answered the request itself (a refusal): then the route does not run. */
  const withSession = async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const session = await sessionOfRequest(deps.clients, req);
    if (!session) return false;
    if (!SAFE_METHODS.has(req.method) && !csrfMatches(req.headers[CSRF_HEADER], session.csrf)) {
      sendError(
        reply,
        publicError('forbidden', 'A call with the session cookie must carry the X-Quire-CSRF header of the app'),
      );
      return true;
    }
    const grant = await deps.resolver.grant(session.actor, session.key);
    req.headers.authorization = grant.authorization;
    reply.raw.once('close', grant.release);
    return false;
  };
  // Callback-style: a call with a bearer token or no cookie (every API client's) passes without a promise.
  app.addHook('preHandler', (req, reply, done) => {
    if (req.headers.authorization !== undefined || !req.headers.cookie) return done();
    if (!(req.url === '/v1' || req.url.startsWith('/v1/') || req.url.startsWith('/v1?'))) return done();
    withSession(req, reply).then((answered) => {
      if (!answered) done();
    }, done);
  });
}
