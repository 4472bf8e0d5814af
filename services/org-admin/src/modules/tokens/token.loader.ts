import type { Actor } from '@quire/contracts';
import { notFound, sha256Hex } from '@quire/kit';
import type { OrgAdminContext, UserContext } from '../../trpc.ts';
import { tokenKeyOf, type IApiToken } from './api-token.entity.ts';
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

/**
 * A page of the keys of every token that resolves, in hash order: the instance admin's first (on the first page),
 * then the active API tokens after `after`; `next` is the last hash of a full page.
 */
export async function loadTokenKeys(
  ctx: Pick<OrgAdminContext, 'em' | 'config'>,
  page: { after?: string | undefined; limit: number },
): Promise<{ keys: string[]; next: string | null }> {
  const hashes = await tokenRepository.activeHashesAfter(ctx.em, page.after, page.limit);
  const admin = ctx.config.QUIRE_ADMIN_TOKEN;
  const keys = hashes.map(tokenKeyOf);
  if (admin && page.after === undefined) keys.unshift(tokenKeyOf(adminTokenHash(admin)));
  return { keys, next: hashes.length === page.limit ? hashes[hashes.length - 1]! : null };
}

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
