import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicError } from '@quire/kit';
import { sendError } from './errors.ts';

/** Requests per window; 0 turns a limit off. */
export interface RateLimitSettings {
  /** Per API token, once it is known (`QUIRE_RATE_LIMIT_PER_MINUTE`). */
  perToken: number;
  /** Per client address, before authentication, on every route but health and metrics (`QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE`). */
  perAddress: number;
  /**
   * Failed authentications per client address; past it, that address's unknown tokens answer 429, with no lookup
   * (`QUIRE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE`). Valid tokens and requests without one are not counted nor refused.
   */
  authFailures: number;
  windowMs: number;
}

/** What a route outside the limiter's own hook asks of it (the REST routes, once a token is resolved). */
export interface RateLimits {
  /** Counts a request of this token; false when the token's budget is spent (the 429 is sent). */
  token(req: FastifyRequest, reply: FastifyReply, tokenKey: string): Promise<boolean>;
  /**
   * Counts a failed authentication (a forged, revoked or malformed token) of this request's address; false when the
   * address's budget is spent, and the 429 is sent instead of the 401.
   */
  authFailed(req: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** Whether a token the gateway cannot vouch for may still be looked up for this address (its failure budget left). */
  mayLookUp(req: FastifyRequest): Promise<boolean>;
}

/**
 * `QUIRE_TRUST_PROXY` as fastify's `trustProxy`: `true` (any proxy), or the proxies' addresses and CIDRs. Behind
 * a trusted proxy, `req.ip` (the address the limits count by) is the client's from `X-Forwarded-For`.
 */
export function trustProxyOf(setting: string | undefined): { trustProxy?: boolean | string[] } {
  if (setting === undefined || setting.trim() === '' || setting === 'false') return {};
  if (setting === 'true') return { trustProxy: true };
  return {
    trustProxy: setting
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** Routes the address limit leaves alone: probes and scrapes, which must answer whatever a client does. */
const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

interface Limit {
  max: number;
  remaining: number;
  ttlInSeconds: number;
  isExceeded: boolean;
}

/**
 * The headers of a limit: IETF's `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers:
 * quota `q`, window `w` in seconds, remaining `r`, reset `t` in seconds) and GitBook's `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` (UTC epoch seconds).
 */
function setHeaders(reply: FastifyReply, policy: string, limit: Limit, windowMs: number): void {
  reply.header('ratelimit-policy', `"${policy}";q=${limit.max};w=${Math.round(windowMs / 1000)}`);
  reply.header('ratelimit', `"${policy}";r=${limit.remaining};t=${limit.ttlInSeconds}`);
  reply.header('x-ratelimit-limit', String(limit.max));
  reply.header('x-ratelimit-remaining', String(limit.remaining));
  reply.header('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + limit.ttlInSeconds));
}

function refuse(reply: FastifyReply, limit: Limit, why: string): FastifyReply {
  return sendError(reply, publicError('rate_limited', `${why}; please try again in ${limit.ttlInSeconds} seconds`), {
    'retry-after': String(Math.max(1, limit.ttlInSeconds)),
  });
}

/**
 * Rate limits with `@fastify/rate-limit` (fixed windows in an in-memory LRU per gateway process):
 * - per client address, in an `onRequest` hook of the whole app, so before authentication: routes added by others
 *   (published sites, sign-in) are covered too;
 * - failed authentications per address, asked by the routes that read a token: they throttle the failing tokens
 *   only (401, then 429 past the budget). A valid token, a published page or `/login` from the same address is
 *   answered as usual: one address (or every user behind a proxy that is not trusted) cannot lock the others out;
 * - per API token, asked by the REST routes once the token is resolved.
 * Every 429 is `{error:{code,message}}` with `Retry-After` and the limit's headers.
 */
export async function registerRateLimits(app: FastifyInstance, s: RateLimitSettings): Promise<RateLimits> {
  await app.register(rateLimit, { global: false, timeWindow: s.windowMs, cache: 100_000, skipOnError: true });
  const limiter = (max: number, prefix: string, key: (req: FastifyRequest) => string) =>
    max > 0
      ? app.createRateLimit({ max, timeWindow: s.windowMs, keyGenerator: (req) => `${prefix}:${key(req)}` })
      : undefined;
  const byAddress = limiter(s.perAddress, 'a', (req) => req.ip);
  const failures = limiter(s.authFailures, 'f', (req) => req.ip);
  const tokenOf = new WeakMap<FastifyRequest, string>();
  const byToken = limiter(s.perToken, 't', (req) => tokenOf.get(req) ?? req.ip);

  app.addHook('onRequest', async (req, reply) => {
    if (!byAddress || EXEMPT.has(req.url.split('?')[0]!)) return;
    const limit = (await byAddress(req)) as Limit & { isAllowed: boolean };
    if (limit.isAllowed) return;
    if (limit.isExceeded) {
      setHeaders(reply, 'address', limit, s.windowMs);
      return refuse(reply, limit, 'Too many requests from this address');
    }
    return undefined;
  });

  return {
    token: async (req, reply, tokenKey) => {
      if (!byToken) return true;
      tokenOf.set(req, tokenKey);
      const limit = (await byToken(req)) as Limit & { isAllowed: boolean };
      if (limit.isAllowed) return true;
      setHeaders(reply, 'token', limit, s.windowMs);
      if (!limit.isExceeded) return true;
      refuse(reply, limit, 'API rate limit exceeded');
      return false;
    },
    authFailed: async (req, reply) => {
      if (!failures) return true;
      const limit = (await failures(req)) as Limit & { isAllowed: boolean };
      if (limit.isAllowed || !limit.isExceeded) return true;
      refuse(reply, limit, 'Too many failed authentications from this address');
      return false;
    },
    mayLookUp: async (req) => {
      if (!failures) return true;
      const limit = (await failures(req, { increment: false })) as Limit & { isAllowed: boolean };
      return limit.isAllowed || limit.remaining > 0;
    },
  };
}
