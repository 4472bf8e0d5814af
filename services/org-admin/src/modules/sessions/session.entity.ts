import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A browser session: the cookie carries a secret, the row its SHA-256 and the session's CSRF token. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'session',
  properties: {
    hash: p.string().primary(),
    userId: p.string(),
    csrf: p.string(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  },
});
export type ISession = InferEntity<typeof Session>;
