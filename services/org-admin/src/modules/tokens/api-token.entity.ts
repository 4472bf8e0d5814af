import { p, type InferEntity } from '@mikro-orm/core';
import { defineTable, idColumn } from '@quire/kit';

/** API tokens are stored as SHA-256 hashes; the token itself is shown once, at creation. */
export const ApiToken = defineTable('ApiToken', 'api_token', {
  ...idColumn(),
  userId: p.string().index(),
  label: p.string(),
  hash: p.string().unique(),
  createdAt: p.datetime(),
  lastUsedAt: p.datetime().nullable(),
  revokedAt: p.datetime().nullable(),
});
export type IApiToken = InferEntity<typeof ApiToken>;
