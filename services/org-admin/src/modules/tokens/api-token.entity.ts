import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';

/** API tokens are stored as SHA-256 hashes; the token itself is shown once, at creation. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_token',
  properties: {
    ...idColumn(),
    userId: p.string().index(),
    label: p.string(),
    hash: p.string().unique(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type IApiToken = InferEntity<typeof ApiToken>;

/** A token's key in the gateways' known-token filter: the first 16 hex digits of its SHA-256 (`auth.listTokenKeys`). */
export const tokenKeyOf = (hash: string): string => hash.slice(0, 16);
