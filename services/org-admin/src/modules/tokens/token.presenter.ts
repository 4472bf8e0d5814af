import type { Actor } from '@quire/contracts';
import type { IApiToken } from './api-token.entity.ts';
import type { ResolvedToken } from './token.loader.ts';

/** An API token as its owner sees it (never its secret). */
export const presentApiToken = (t: IApiToken) => ({
  object: 'api-token' as const,
  id: t.id,
  label: t.label,
  createdAt: t.createdAt.toISOString(),
  ...(t.lastUsedAt ? { lastUsedAt: t.lastUsedAt.toISOString() } : {}),
});

/** The actor of a resolved token: a user's carries the token's id (the audit log records which token made a change). */
export function presentResolvedToken(resolved: ResolvedToken): { actor: Actor | null } {
  if (resolved.kind === 'instance-admin') return { actor: { kind: 'instance-admin' } };
  if (resolved.kind === 'none') return { actor: null };
  const { actor, token } = resolved;
  return { actor: actor.kind === 'user' ? { ...actor, tokenId: token.id } : actor };
}
