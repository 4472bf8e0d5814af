import type { Actor } from '@quire/contracts';
import { notFound, sha256Hex } from '@quire/kit';
import type { OrgAdminContext, UserContext } from '../../trpc.ts';
import type { IApiToken } from './api-token.entity.ts';
import { tokenRepository } from './token.repository.ts';

/** One of the caller's active API tokens (404 otherwise: another user's token is not found either). */
export async function loadOwnTokenFor(ctx: Pick<UserContext, 'em' | 'actor'>, tokenId: string): Promise<IApiToken> {
  const token = await tokenRepository.findActiveOf(ctx.em, ctx.actor.userId, tokenId);
  if (!token) throw notFound('API token');
  return token;
}

const adminHashes = new Map<string, string>();
const adminTokenHash = (token: string) => {
  let h = adminHashes.get(token);
  if (!h) adminHashes.set(token, (h = sha256Hex(token)));
  return h;
};

/** Who a token (by its hash) stands for: the instance admin, a user's active API token and its actor, or nobody. */
export type ResolvedToken =
  | { kind: 'instance-admin'; token?: undefined }
  | { kind: 'api-token'; token: IApiToken; actor: Actor }
  | { kind: 'none'; token?: undefined };

/** The actor a token hash stands for (the gateway authenticating a request). */
export async function loadTokenByHash(
  ctx: Pick<OrgAdminContext, 'em' | 'config'>,
  tokenHash: string,
): Promise<ResolvedToken> {
  const admin = ctx.config.QUIRE_ADMIN_TOKEN;
  if (admin && adminTokenHash(admin) === tokenHash) return { kind: 'instance-admin' };
  const token = await tokenRepository.findActiveByHash(ctx.em, tokenHash);
  if (!token) return { kind: 'none' };
  return { kind: 'api-token', token, actor: await tokenRepository.actorOf(ctx.em, token.userId) };
}
