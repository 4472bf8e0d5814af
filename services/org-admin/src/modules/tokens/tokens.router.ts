import { ops, type Actor } from '@quire/contracts';
import { notFound, paginate, sha256Hex } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { tokenIssuer, tokenRevoker, tokenUseRecorder } from '../../commands/token-issuer.ts';
import { ApiToken, type IApiToken } from './api-token.entity.ts';
import { tokenRepository } from './token.repository.ts';

const present = (t: IApiToken) => ({
  object: 'api-token' as const,
  id: t.id,
  label: t.label,
  createdAt: t.createdAt.toISOString(),
  ...(t.lastUsedAt ? { lastUsedAt: t.lastUsedAt.toISOString() } : {}),
});

const adminHashes = new Map<string, string>();
const adminTokenHash = (token: string) => {
  let h = adminHashes.get(token);
  if (!h) adminHashes.set(token, (h = sha256Hex(token)));
  return h;
};

/** A user's own tokens: every query is scoped to the caller, so there is nothing else to authorize. */
export const tokenProcedures = {
  createApiToken: implement(ops.createApiToken, async ({ input, ctx }) => {
    const { token, record } = tokenIssuer(ctx.em, { userId: ctx.actor.userId, label: input.label });
    return { token, info: present(record) };
  }),

  listApiTokens: implement(ops.listApiTokens, async ({ input, ctx }) =>
    paginate(ctx.em, ApiToken, { userId: ctx.actor.userId, revokedAt: null }, { createdAt: 'desc', id: 'desc' }, input, present),
  ),

  revokeApiToken: implement(ops.revokeApiToken, async ({ input, ctx }) => {
    const token = await tokenRepository.findActiveOf(ctx.em, ctx.actor.userId, input.tokenId);
    if (!token) throw notFound('API token');
    tokenRevoker(ctx.em, { token });
  }),

  resolveToken: implement(ops.resolveToken, async ({ input, ctx }) => {
    const admin = ctx.config.QUIRE_ADMIN_TOKEN;
    if (admin && adminTokenHash(admin) === input.tokenHash) return { actor: { kind: 'instance-admin' } satisfies Actor };
    const token = await tokenRepository.findActiveByHash(ctx.em, input.tokenHash);
    if (!token) return { actor: null };
    tokenUseRecorder(ctx.em, { token });
    return { actor: await tokenRepository.actorOf(ctx.em, token.userId) };
  }),
};
