import { ops } from '@quire/contracts';
import { implementPrepared } from '../../trpc.ts';
import { handleSignIn } from './handler.ts';
import { prepareSso } from './sso.ts';

/** The sign-in pages, rendered for the gateway (internal: the gateway is the only public surface). */
export const signInProcedures = {
  handleSignInRequest: implementPrepared(
    ops.handleSignInRequest,
    ({ input, ctx }) => prepareSso(ctx, input),
    ({ input, ctx, prepared }) => handleSignIn(ctx, input, prepared),
  ),
};
