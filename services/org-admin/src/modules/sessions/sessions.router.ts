import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadSessionActor } from './session.loader.ts';

/** The gateway authenticating the app's `/v1` calls by the sign-in session cookie (internal). */
export const sessionProcedures = {
  resolveSession: implement(ops.resolveSession, ({ input, ctx }) => loadSessionActor(ctx, input.cookie)),
};
