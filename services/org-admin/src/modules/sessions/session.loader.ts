import type { Actor } from '@quire/contracts';
import type { OrgAdminContext } from '../../trpc.ts';
import { tokenRepository } from '../tokens/token.repository.ts';
import { SESSION_COOKIE, sessionOf } from './sessions.ts';

/** Who holds a sign-in session, by its cookie: the user as an actor and the session's CSRF token (nulls without a live session). */
export async function loadSessionActor(
  ctx: Pick<OrgAdminContext, 'em' | 'config'>,
  cookie: string,
): Promise<{ actor: Actor | null; csrf: string | null }> {
  const session = await sessionOf(ctx.em, ctx.config, { [SESSION_COOKIE]: cookie });
  if (!session) return { actor: null, csrf: null };
  return { actor: await tokenRepository.actorOf(ctx.em, session.userId), csrf: session.csrf };
}
