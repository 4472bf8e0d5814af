import type { OperationInput, OperationOutput, ops } from '@quire/contracts';
import type { OrgAdminContext } from '../../trpc.ts';
import type { ISession } from '../sessions/session.entity.ts';

export type SignInInput = OperationInput<typeof ops.handleSignInRequest>;
export type SignInOutput = OperationOutput<typeof ops.handleSignInRequest>;

/** One request to the sign-in pages, as each page gets it (`loadSignInRequest`). */
export interface SignInRequest {
  ctx: OrgAdminContext;
  input: SignInInput;
  /** The live session of the request's cookie, null when nobody is signed in. */
  session: ISession | null;
  /** The CSRF token forms must carry: the session's, or the double-submit cookie's before sign-in. */
  csrf: string;
  /** The `Set-Cookie` values of the answer, added by the steps (a new CSRF cookie, a session's). */
  cookies: string[];
}

/** What signing `userId` in at `now` by this request needs (`signInRecorder`): the browser it records too. */
export const signInOf = (r: SignInRequest, userId: string, now: Date) => ({
  config: r.ctx.config,
  userId,
  now,
  browser: { userAgent: r.input.userAgent, address: r.input.address },
});

/** A page with a session: the request of a signed-in person. */
export type SignedInRequest = SignInRequest & { session: ISession };

/**
 * A refusal of the sign-in pages (an expired link, too many attempts…): thrown by a loader or a page, answered by
 * the handler with its message page and status. What the request wrote before it is committed (a link claimed
 * stays used).
 */
export class SignInRefusal extends Error {
  readonly status: number;
  readonly title: string;
  readonly text: string;
  constructor(status: number, title: string, text: string) {
    super(text);
    this.status = status;
    this.title = title;
    this.text = text;
  }
}

export const refusal = (status: number, title: string, text: string) => new SignInRefusal(status, title, text);

/** What a loader found, or the refusal it called for, thrown here. */
export function accepted<T>(found: T | SignInRefusal): T {
  if (found instanceof SignInRefusal) throw found;
  return found;
}

/** The refusals more than one step gives. */
export const REFUSED = {
  pageNotFound: refusal(404, 'Page not found', 'There is no such page.'),
  formExpired: refusal(
    403,
    'Form expired',
    'This form was not sent from this site or has expired. Reload and try again.',
  ),
  linkNotValid: refusal(
    410,
    'Link not valid',
    'This sign-in link is expired, already used or wrong. Ask for a new one.',
  ),
  invitationUsed: refusal(410, 'Invitation already used', 'This invitation was already accepted: sign in.'),
  invitationNotValid: refusal(410, 'Invitation not valid', 'This invitation is used, withdrawn, expired or not yours.'),
  ssoUsed: refusal(410, 'Sign-in expired', 'This sign-in is expired or already used. Start again.'),
  emailNotVerified: refusal(
    403,
    'E-mail not verified',
    'The identity provider did not give a verified e-mail address: you cannot be signed in.',
  ),
};

/** The refusal of an attempt over its throttle: `text` says what was tried too often. */
export const tooManyAttempts = (text: string) => refusal(429, 'Too many attempts', `${text} Wait 15 minutes.`);

/** Throws `refused` unless `ok`: the one-time claims and throttles of the pages read as one line each. */
export function refuseUnless(ok: unknown, refused: SignInRefusal): asserts ok {
  if (!ok) throw refused;
}

/** `?next=`: a path of this site only (`/…`, not `//host` nor `/\host`), else the account page. */
export function safeNext(next: string | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/account';
  if (/[\u0000-\u001f\\]/.test(next)) return '/account';
  const base = 'http://quire.invalid';
  const url = new URL(next, base);
  const path = url.pathname + url.search + url.hash;
  // `/.//host` normalizes to `//host`: checked again after parsing.
  return url.origin === base && !path.startsWith('//') ? path : '/account';
}
