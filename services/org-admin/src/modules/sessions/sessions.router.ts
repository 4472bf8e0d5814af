import { ops } from '@quire/contracts';
import { sessionEnder, sessionToucher } from '../../commands/session-starter.ts';
import { implement } from '../../trpc.ts';
import { loadOwnSessions, loadSessionActor, loadSessionFor } from './session.loader.ts';
import { presentSessionActor, presentUserSession } from './session.presenter.ts';

/**
 * The gateway authenticating the app's `/v1` calls by the sign-in session cookie (internal). A mutation: each call
 * renews the session's idle time (at most once a minute), as a sign-in page does, so a member working in the app
 * stays signed in. And a user's own sessions (Quire-only): listed, and signed out one by one.
 */
export const sessionProcedures = {
  resolveSession: implement(ops.resolveSession, async ({ input, ctx }) => {
    const found = await loadSessionActor(ctx, input.cookie);
    sessionToucher(ctx.em, { session: found.session });
    return presentSessionActor(found);
  }),

  listUserSessions: implement(ops.listUserSessions, async ({ input, ctx }) => {
    const page = await loadOwnSessions(ctx, input);
    return { ...page, items: page.items.map((s) => presentUserSession(s, ctx.actor)) };
  }),

  revokeUserSession: implement(ops.revokeUserSession, async ({ input, ctx }) => {
    sessionEnder(ctx.em, { session: await loadSessionFor(ctx, input.sessionId, 'revoke') });
  }),
};
