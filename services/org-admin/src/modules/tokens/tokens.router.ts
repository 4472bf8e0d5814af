import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { tokenIssuer, tokenRevoker, tokenUseRecorder } from '../../commands/token-issuer.ts';
import { ApiToken } from './api-token.entity.ts';
import { loadOwnTokenFor, loadTokenByHash, loadTokenKeys } from './token.loader.ts';
import { presentApiToken, presentResolvedToken } from './token.presenter.ts';

/** A user's own tokens: every query is scoped to the caller, so there is nothing else to authorize. */
export const tokenProcedures = {
  createApiToken: implement(ops.createApiToken, async ({ input, ctx }) => {
    const { token, record } = tokenIssuer(ctx.em, { userId: ctx.actor.userId, label: input.label });
    return { token, info: presentApiToken(record) };
  }),

  listApiTokens: implement(ops.listApiTokens, async ({ input, ctx }) =>
    paginate(
      ctx.em,
      ApiToken,
      { userId: ctx.actor.userId, revokedAt: null },
      { createdAt: 'desc', id: 'desc' },
      input,
      presentApiToken,
    ),
  ),

  revokeApiToken: implement(ops.revokeApiToken, async ({ input, ctx }) => {
    tokenRevoker(ctx.em, { token: await loadOwnTokenFor(ctx, input.tokenId) });
  }),

  resolveToken: implement(ops.resolveToken, async ({ input, ctx }) => {
    const resolved = await loadTokenByHash(ctx, input.tokenHash);
    tokenUseRecorder(ctx.em, resolved);
    return presentResolvedToken(resolved);
  }),

  listTokenKeys: implement(ops.listTokenKeys, async ({ input, ctx }) => loadTokenKeys(ctx, input)),
};
