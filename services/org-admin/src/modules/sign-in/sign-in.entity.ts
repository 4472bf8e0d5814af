import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Role } from '@quire/contracts';

/** What can be used once before it expires (a link, an invitation, a flow): when made, until when, and when used. */
export const singleUseColumns = () => ({
  createdAt: p.datetime(),
  expiresAt: p.datetime(),
  usedAt: p.datetime().nullable(),
});

/** A one-time sign-in link sent by e-mail: only its SHA-256 is stored. */
export const SignInLink = defineEntity({
  name: 'SignInLink',
  tableName: 'sign_in_link',
  properties: {
    hash: p.string().primary(),
    email: p.string(),
    next: p.string(),
    ...singleUseColumns(),
  },
});
export type ISignInLink = InferEntity<typeof SignInLink>;

/** An invitation to an organization, accepted through the link sent by e-mail (SHA-256 stored). */
export const Invite = defineEntity({
  name: 'Invite',
  tableName: 'invite',
  properties: {
    id: p.string().primary(),
    hash: p.string().unique(),
    organizationId: p.string(),
    userId: p.string(),
    role: p.string().$type<Role | null>().nullable(),
    ...singleUseColumns(),
    revokedAt: p.datetime().nullable(),
    /** The invited account is not a member yet: accepting makes it one (an existing account joins only so). */
    joins: p.boolean(),
  },
});
export type IInvite = InferEntity<typeof Invite>;

/** One sign-in attempt counted against a key (`address:…`, `account:…`, `verify:…`) by the throttle. */
export const SignInAttempt = defineEntity({
  name: 'SignInAttempt',
  tableName: 'sign_in_attempt',
  properties: {
    id: p.string().primary(),
    key: p.string(),
    at: p.datetime(),
  },
});
