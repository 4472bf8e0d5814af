import { newId, newSecret, sha256Hex, type EntityManager } from '@quire/kit';
import { ApiToken, type IApiToken } from '../modules/tokens/api-token.entity.ts';

export const TOKEN_PREFIX = 'quire';

/** Issues an API token: the secret is returned once, only its SHA-256 is stored. */
export function issueToken(em: EntityManager, userId: string, label: string): { token: string; record: IApiToken } {
  const token = newSecret(TOKEN_PREFIX);
  const record = em.create(ApiToken, { id: newId(), userId, label, hash: sha256Hex(token), createdAt: new Date(), lastUsedAt: null, revokedAt: null });
  return { token, record };
}
