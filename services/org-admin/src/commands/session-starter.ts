import { Events } from '@quire/contracts';
import { newId, recordEvent, sha256Hex, type EntityManager } from '@quire/kit';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { Session, type ISession } from '../modules/sessions/session.entity.ts';
import {
  ABSOLUTE_MS,
  cookie,
  type CookieConfig,
  randomToken,
  SESSION_COOKIE,
  signedCookie,
  TOUCH_MS,
} from '../modules/sessions/sessions.ts';
import { memberSeenRecorder } from './member-updater.ts';

export interface SessionStarterProps {
  config: CookieConfig;
  userId: string;
  now?: Date;
  /** The browser signing in: its User-Agent (kept to 512 characters) and address, shown to the session's owner. */
  browser?: { userAgent?: string | null | undefined; address?: string | null | undefined };
}

const USER_AGENT_MAX = 512;

/** Starts a session for the user: returns its Set-Cookie value (only the SHA-256 of its secret is stored). */
export async function sessionStarter(
  em: EntityManager,
  { config, userId, now = new Date(), browser = {} }: SessionStarterProps,
): Promise<string> {
  const secret = randomToken();
  em.create(Session, {
    hash: sha256Hex(secret),
    id: newId(),
    userId,
    csrf: randomToken(),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ABSOLUTE_MS),
    endedAt: null,
    userAgent: browser.userAgent?.slice(0, USER_AGENT_MAX) || null,
    address: browser.address || null,
  });
  const value = await signedCookie(config, 'session', secret, now.getTime() + ABSOLUTE_MS);
  return cookie(config, SESSION_COOKIE, value, ABSOLUTE_MS / 1000);
}

/**
 * Signs the user in: a session (its Set-Cookie value returned), and the sign-in recorded as their last visit to each
 * of their organizations (those joined in this same request included).
 */
export async function signInRecorder(em: EntityManager, props: SessionStarterProps): Promise<string> {
  const now = props.now ?? new Date();
  const setCookie = await sessionStarter(em, { ...props, now });
  for (const membership of await em.find(Membership, { userId: props.userId }))
    memberSeenRecorder(em, { membership, now });
  return setCookie;
}

/** Records a request of a live session (to the minute): its idle time starts again. Nothing without a session. */
export function sessionToucher(
  em: EntityManager,
  { session, now = new Date() }: { session: ISession | null; now?: Date },
) {
  if (!session || now.getTime() - session.lastSeenAt.getTime() <= TOUCH_MS) return;
  session.lastSeenAt = now;
  em.persist(session);
}

/** Ends the session: its cookie is refused from now on, even if a copy of it is replayed. Answers the Set-Cookie clearing it. */
export function sessionEnder(
  em: EntityManager,
  { session, now = new Date() }: { session: ISession; now?: Date },
): string {
  sessionsEnder(em, { sessions: [session], now });
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/**
 * Ends each of these sessions (the owner's other browsers, "Sign out everywhere else"), and says so
 * (`session.ended`, per user): the live-editing sockets opened with them close at once.
 */
export function sessionsEnder(em: EntityManager, { sessions, now = new Date() }: { sessions: ISession[]; now?: Date }) {
  const byUser = new Map<string, string[]>();
  for (const session of sessions) {
    session.endedAt = now;
    em.persist(session);
    byUser.set(session.userId, [...(byUser.get(session.userId) ?? []), session.id]);
  }
  for (const [user, ids] of byUser) recordEvent(em, Events.sessionEnded, { user, sessions: ids });
}
