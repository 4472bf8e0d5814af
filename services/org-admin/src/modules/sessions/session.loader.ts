import type { Actor } from '@quire/contracts';
import type { OrgAdminContext } from '../../trpc.ts';
import { tokenRepository } from '../tokens/token.repository.ts';
import { SESSION_COOKIE, sessionOf } from './sessions.ts';
import type { ISession } from './session.entity.ts';

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
