import { Events } from '@quire/contracts';
import { newId, newSecret, recordEvent, sha256Hex, type EntityManager } from '@quire/kit';
import { ApiToken, tokenKeyOf, type IApiToken } from '../modules/tokens/api-token.entity.ts';

export const TOKEN_PREFIX = 'quire';
/** `lastUsedAt` is kept to this precision: a token used again within it is not written. */
const LAST_USED_PRECISION_MS = 60_000;

/**
 * Issues an API token: the secret is returned once, only its SHA-256 is stored. `token.issued` carries the hash's
 * first 16 hex digits to the gateways, whose known-token filter then lets the token through.
 */
export function tokenIssuer(
  em: EntityManager,
  props: { userId: string; label: string },
): { token: string; record: IApiToken } {
  const token = newSecret(TOKEN_PREFIX);
  const hash = sha256Hex(token);
  const record = em.create(ApiToken, {
    id: newId(),
    userId: props.userId,
    label: props.label,
    hash,
    createdAt: new Date(),
    lastUsedAt: null,
    revokedAt: null,
  });
  recordEvent(em, Events.tokenIssued, { user: props.userId, token: record.id, key: tokenKeyOf(hash) });
  return { token, record };
}

/** Revokes a token: it stops resolving at once; `token.revoked` lets gateways drop it from their caches. */
export function tokenRevoker(em: EntityManager, { token }: { token: IApiToken }): void {
  token.revokedAt = new Date();
  em.persist(token);
  recordEvent(em, Events.tokenRevoked, { user: token.userId, token: token.id });
}

/** Records that a token was used (minute precision); nothing for a token that is not an API token (none, the admin's). */
export function tokenUseRecorder(
  em: EntityManager,
  { token, now = new Date() }: { token?: IApiToken | undefined; now?: Date },
): void {
  if (!token) return;
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() <= LAST_USED_PRECISION_MS) return;
  token.lastUsedAt = now;
  em.persist(token);
}
