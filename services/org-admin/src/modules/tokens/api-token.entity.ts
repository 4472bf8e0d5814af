import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** API tokens are stored as SHA-256 hashes; the token itself is shown once, at creation. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_token',
  properties: {
    id: p.string().primary(),
    userId: p.string().index(),
    label: p.string(),
    hash: p.string().unique(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type IApiToken = InferEntity<typeof ApiToken>;
