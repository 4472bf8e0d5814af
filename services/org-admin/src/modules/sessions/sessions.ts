import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex, type EntityManager } from '@quire/kit';
import { Session, type ISession } from './session.entity.ts';

export const SESSION_COOKIE = 'quire_session';
export const CSRF_COOKIE = 'quire_csrf';
/** A session ends after this long without a request… */
export const IDLE_MS = 12 * 60 * 60 * 1000;
/** …and this long after sign-in, whatever happens. */
export const ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
const TOUCH_MS = 60_000;

export interface CookieConfig {
  QUIRE_INTERNAL_SECRET: string;
  QUIRE_PUBLIC_URL: string;
}

const sign = (secret: string, value: string) =>
  createHmac('sha256', `quire-session:${secret}`).update(value).digest('base64url');

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

/** The value of a signed cookie (`value.signature`), or null when the signature does not match. */
export function unsign(config: CookieConfig, signed: string | undefined): string | null {
  if (!signed) return null;
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  return same(signed.slice(dot + 1), sign(config.QUIRE_INTERNAL_SECRET, value)) ? value : null;
}

export const signed = (config: CookieConfig, value: string) => `${value}.${sign(config.QUIRE_INTERNAL_SECRET, value)}`;

export const randomToken = () => randomBytes(32).toString('base64url');

/** Starts a session for the user: returns its Set-Cookie value. */
export function sessionStarter(em: EntityManager, config: CookieConfig, userId: string, now = new Date()): string {
  const secret = randomToken();
  em.create(Session, {
    hash: sha256Hex(secret),
    userId,
    csrf: randomToken(),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ABSOLUTE_MS),
    endedAt: null,
  });
  return cookie(config, SESSION_COOKIE, signed(config, secret), ABSOLUTE_MS / 1000);
}

/** The live session of the request's cookie (its idle time renewed), or null: unsigned, ended, idle or expired. */
export async function sessionOf(
  em: EntityManager,
  config: CookieConfig,
  cookies: Record<string, string>,
  now = new Date(),
): Promise<ISession | null> {
  const secret = unsign(config, cookies[SESSION_COOKIE]);
  if (!secret) return null;
  const session = await em.findOne(Session, { hash: sha256Hex(secret) });
  if (!session || session.endedAt || session.expiresAt <= now) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > IDLE_MS) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_MS) session.lastSeenAt = now;
  return session;
}

/** Ends the session: its cookie is refused from now on, even if a copy of it is replayed. */
export function sessionEnder(session: ISession, now = new Date()): string {
  session.endedAt = now;
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}
