import type { Actor } from '@quire/contracts';
import { definePolicy } from '@quire/kit';

export interface SessionFacts {
  /** The user whose session it is. */
  userId: string;
}

/**
 * Who sees and ends a sign-in session: only its own user, whether the call comes from one of their browsers (a
 * session) or from a script with one of their API tokens. Nobody else (an organization's admin, the instance admin)
 * sees that it exists: 404.
 */
export const sessionPolicy = definePolicy({
  resource: 'Session',
  role: (actor: Actor, s: SessionFacts) => (actor.kind === 'user' && actor.userId === s.userId ? 'admin' : null),
  actions: { list: 'admin', revoke: 'admin' },
  describe: { list: 'Listing the sessions', revoke: 'Signing out a session' },
});
