import { ops } from '@quire/contracts';
import { sessionToucher } from '../../commands/session-starter.ts';
import { implement } from '../../trpc.ts';
import { loadSessionActor } from './session.loader.ts';

/**
 * The gateway authenticating the app's `/v1` calls by the sign-in session cookie (internal). A mutation: each call
 * renews the session's idle time (at most once a minute), as a sign-in page does, so a member working in the app
 * stays signed in.
 */
export const sessionProcedures = {
  resolveSession: implement(ops.resolveSession, async ({ input, ctx }) => {
    const { session, actor, csrf } = await loadSessionActor(ctx, input.cookie);
    sessionToucher(ctx.em, { session });
    return { actor, csrf };
  }),
};
