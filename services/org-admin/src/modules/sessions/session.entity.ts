import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A browser session: the cookie carries a secret, the row its SHA-256 and the session's CSRF token. `id` names it to
 * its owner (the account page, `/v1/user/sessions`); the hash is never shown.
 */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'session',
  properties: {
    hash: p.string().primary(),
    id: p.string().unique(),
    userId: p.string(),
    csrf: p.string(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    /** The User-Agent of the browser that signed in (512 characters at most), null when it sent none. */
    userAgent: p.string().nullable(),
    /** The address the sign-in came from, as the gateway saw it. */
    address: p.string().nullable(),
  },
});
export type ISession = InferEntity<typeof Session>;
