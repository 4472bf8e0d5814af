import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FilterQuery } from '@mikro-orm/core';
import { sha256Hex, TokenSigner, type EntityManager, type TokenPurpose } from '@quire/kit';
import { Session, type ISession } from './session.entity.ts';

export const SESSION_COOKIE = 'quire_session';
export const CSRF_COOKIE = 'quire_csrf';
/** A session ends after this long without a request… */
export const IDLE_MS = 12 * 60 * 60 * 1000;
/** …and this long after sign-in, whatever happens. */
export const ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** A session's last request is recorded to this precision (`sessionToucher`). */
export const TOUCH_MS = 60_000;

export interface CookieConfig {
  QUIRE_INTERNAL_SECRET: string;
  QUIRE_PUBLIC_URL: string;
}

/** Constant-time equality of two strings (false when their lengths differ). */
export function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `Set-Cookie` for the instance: HttpOnly, SameSite=Lax, Secure when the public URL is https. */
export function cookie(config: CookieConfig, name: string, value: string, maxAgeSeconds: number): string {
  const secure = config.QUIRE_PUBLIC_URL.startsWith('https:') ? '; Secure' : '';
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** What a signed cookie of the sign-in pages carries: a session's secret, or a single sign-on's state. */
export type CookiePurpose = Extract<TokenPurpose, 'session' | 'sso-state'>;

const signers = new Map<string, TokenSigner<{ v: string }>>();
function signerOf(config: CookieConfig, purpose: CookiePurpose): TokenSigner<{ v: string }> {
  const id = `${purpose}:${config.QUIRE_INTERNAL_SECRET}`;
  let signer = signers.get(id);
  if (!signer) signers.set(id, (signer = new TokenSigner(config.QUIRE_INTERNAL_SECRET, purpose)));
  return signer;
}

/** A cookie value carrying `value` for `purpose` until `expiresAt` (epoch ms): a token of the kit's `TokenSigner`. */
export const signedCookie = (config: CookieConfig, purpose: CookiePurpose, value: string, expiresAt: number) =>
  signerOf(config, purpose).sign({ v: value }, expiresAt);

/** The value a signed cookie carries, or null when it is missing, forged, of another purpose or expired at `now`. */
export async function signedCookieValue(
  config: CookieConfig,
  purpose: CookiePurpose,
  signed: string | undefined,
  now = Date.now(),
): Promise<string | null> {
  if (!signed) return null;
  const claims = await signerOf(config, purpose).verify(signed, now);
  return typeof claims === 'object' && typeof claims.v === 'string' ? claims.v : null;
}

export const randomToken = () => randomBytes(32).toString('base64url');

/** The filter of a user's live sessions at `now`: not ended, expired or idle (newest first: `NEWEST_FIRST`). */
export const liveSessionsOf = (userId: string, now = new Date()): FilterQuery<ISession> => ({
  userId,
  endedAt: null,
  expiresAt: { $gt: now },
  lastSeenAt: { $gte: new Date(now.getTime() - IDLE_MS) },
});

export const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;

/** The live session of the request's cookie, or null: unsigned, ended, idle or expired (`sessionToucher` renews it). */
export async function sessionOf(
  em: EntityManager,
  config: CookieConfig,
  cookies: Record<string, string>,
  now = new Date(),
): Promise<ISession | null> {
  const secret = await signedCookieValue(config, 'session', cookies[SESSION_COOKIE], now.getTime());
  if (!secret) return null;
  const session = await em.findOne(Session, { hash: sha256Hex(secret) });
  return session && isLive(session, now) ? session : null;
}

/** Whether a session is live at `now`: not ended, expired, or idle longer than `IDLE_MS`. */
export const isLive = (session: ISession, now = new Date()): boolean =>
  !session.endedAt && session.expiresAt > now && now.getTime() - session.lastSeenAt.getTime() <= IDLE_MS;
