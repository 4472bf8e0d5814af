// The calls of the account screen (Account.tsx): the signed-in user's own profile, API tokens and sessions, /v1 only.
import type { ops } from '@quire/contracts';
import { browserTransport, type Out, request, requestAll, seg, type Transport } from '../api/client.ts';

export type User = Out<typeof ops.getAuthenticatedUser>;
export type ApiToken = Out<typeof ops.listApiTokens>['items'][number];
export type CreatedToken = Out<typeof ops.createApiToken>;
export type UserSession = Out<typeof ops.listUserSessions>['items'][number];

export function accountApiOf(t: Transport = browserTransport) {
  return {
    /** `getAuthenticatedUser`. */
    user: () => request<User>(t, 'GET', '/user'),
    /** `listApiTokens`: every live token (newest first). */
    tokens: () => requestAll<ApiToken>(t, '/user/tokens'),
    /** `createApiToken`: the token itself is in this answer only. */
    createToken: (label: string) => request<CreatedToken>(t, 'POST', '/user/tokens', { body: { label } }),
    /** `revokeApiToken`. */
    revokeToken: (id: string) => request<void>(t, 'DELETE', `/user/tokens/${seg(id)}`),
    /** `listUserSessions` (Quire-only): the live sign-in sessions, `current` being this browser's. */
    sessions: () => requestAll<UserSession>(t, '/user/sessions'),
    /** `revokeUserSession` (Quire-only): that session's cookie stops working at once. */
    revokeSession: (id: string) => request<void>(t, 'DELETE', `/user/sessions/${seg(id)}`),
  };
}

export const accountApi = accountApiOf();

/** A time as the screen writes it: the browser's locale, to the minute. */
export const when = (iso: string | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never';
