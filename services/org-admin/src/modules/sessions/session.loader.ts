import type { Actor, List } from '@quire/contracts';
import { notFound, paginate, type EntityManager, type PageRequest } from '@quire/kit';
import type { OrgAdminContext, UserContext } from '../../trpc.ts';
import { tokenRepository } from '../tokens/token.repository.ts';
import { Session, type ISession } from './session.entity.ts';
import { sessionPolicy } from './session.policy.ts';
import { isLive, liveSessionsOf, NEWEST_FIRST, SESSION_COOKIE, sessionOf } from './sessions.ts';

/**
 * Who holds a sign-in session, by its cookie: the live session (for `sessionToucher`), its user as an actor and its
 * CSRF token (nulls without a live session).
 */
export async function loadSessionActor(
  ctx: Pick<OrgAdminContext, 'em' | 'config'>,
  cookie: string,
): Promise<{ session: ISession | null; actor: Actor | null; csrf: string | null }> {
  const session = await sessionOf(ctx.em, ctx.config, { [SESSION_COOKIE]: cookie });
  if (!session) return { session: null, actor: null, csrf: null };
  return { session, actor: await tokenRepository.actorOf(ctx.em, session.userId), csrf: session.csrf };
}

/** A page of the caller's live sessions, newest first (see session.policy.ts). */
export async function loadOwnSessions(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  page: PageRequest,
): Promise<List<ISession>> {
  sessionPolicy.assert(ctx.actor, { userId: ctx.actor.userId }, 'list');
  return paginate(ctx.em, Session, liveSessionsOf(ctx.actor.userId), NEWEST_FIRST, page, (s) => s);
}

/** A live session the caller may act on: 404 when there is none by this id, it ended, or it is another user's. */
export async function loadSessionFor(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  sessionId: string,
  action: 'revoke',
): Promise<ISession> {
  const session = await ctx.em.findOne(Session, { id: sessionId });
  if (!session || !isLive(session)) throw notFound('Session');
  sessionPolicy.assert(ctx.actor, { userId: session.userId }, action);
  return session;
}

/** The live sessions of a user, newest first (the account page lists them: at most 100). */
export const loadLiveSessions = (em: EntityManager, userId: string): Promise<ISession[]> =>
  em.find(Session, liveSessionsOf(userId), { orderBy: NEWEST_FIRST, limit: 100 });
