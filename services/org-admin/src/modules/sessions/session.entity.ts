import { p, type InferEntity } from '@mikro-orm/core';
import { defineTable } from '@quire/kit';

/** A browser session: the cookie carries a secret, the row its SHA-256 and the session's CSRF token. */
export const Session = defineTable('Session', 'session', {
  hash: p.string().primary(),
  userId: p.string(),
  csrf: p.string(),
  createdAt: p.datetime(),
  lastSeenAt: p.datetime(),
  expiresAt: p.datetime(),
  endedAt: p.datetime().nullable(),
});
export type ISession = InferEntity<typeof Session>;
