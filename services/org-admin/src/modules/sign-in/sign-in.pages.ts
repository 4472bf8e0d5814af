// The pages of the sign-in by e-mail link, of invitations and of the account: each loads, runs its commands, then
// presents (CONTRIBUTING §5, checked by the conventions test); a refusal is thrown and answered by the handler.
import { inviteAccepter } from '../../commands/invite-accepter.ts';
import { sessionEnder, sessionsEnder, signInRecorder } from '../../commands/session-starter.ts';
import { LIMITS, signInAttemptRecorder } from '../../commands/sign-in-attempt-recorder.ts';
import { signInLinkClaimer, signInLinkSender } from '../../commands/sign-in-link-sender.ts';
import { tokenIssuer, tokenRevoker } from '../../commands/token-issuer.ts';
import {
  emailOf,
  loadAccount,
  loadActiveToken,
  loadInvitation,
  loadOpenInvitation,
  loadOrganizationTitle,
  loadOwnSession,
  loadSignInLink,
  loadSsoMethods,
  loadUserByEmail,
} from './sign-in.loader.ts';
import { loadLiveSessions } from '../sessions/session.loader.ts';
import {
  accountPage,
  accountViewOf,
  invitationPage,
  loginPage,
  presentMessage,
  presentPage,
  presentRedirect,
  ssoLinksOf,
  verifyPage,
} from './sign-in.presenter.ts';
import {
  accepted,
  REFUSED,
  refusal,
  refuseUnless,
  safeNext,
  signInOf,
  tooManyAttempts,
  type SignedInRequest,
  type SignInOutput,
  type SignInRequest,
} from './sign-in-request.ts';

/** Counts the attempt against each key; refused (429, `text` says what was tried too often) past a limit. */
export async function throttled(r: SignInRequest, keys: { key: string; limit: number }[], text: string): Promise<void> {
  refuseUnless(await signInAttemptRecorder(r.ctx.em, { keys }), tooManyAttempts(text));
}

/** `GET /login`: the form asking for a sign-in link, with the organization's single sign-on methods. */
export async function loginShow(r: SignInRequest): Promise<SignInOutput> {
  const next = safeNext(r.input.query.next);
  if (r.session) return presentRedirect(r, next);
  const methods = await loadSsoMethods(r.ctx.em, r.input.query.organization);
  return presentPage(r, 200, loginPage(r.csrf, next, undefined, ssoLinksOf(methods, next)));
}

/** `POST /login`: a sign-in link mailed to the address when it has an account; the same answer when it has none. */
export async function linkRequest(r: SignInRequest): Promise<SignInOutput> {
  const next = safeNext(r.input.form.next);
  const email = emailOf((r.input.form.email ?? '').trim().toLowerCase());
  if (!email) return presentPage(r, 400, loginPage(r.csrf, next, 'Enter a valid e-mail address.'));
  const user = await loadUserByEmail(r.ctx.em, email);
  const keys = [
    { key: `address:${r.input.address}`, limit: LIMITS.address },
    { key: `account:${email}`, limit: LIMITS.account },
  ];
  await throttled(r, keys, 'Too many sign-in links were asked for.');
  if (user) await signInLinkSender(r.ctx.em, r.ctx, { email, next });
  // The same answer whether or not the address has an account: the page tells nobody who is registered.
  return presentMessage(r, 200, 'Check your e-mail', `If ${email} has an account, a sign-in link is on its way.`);
}

/** `GET /login/verify`: the confirmation of a link (a GET signs nobody in: mail scanners open links). */
export const verifyShow = async (r: SignInRequest): Promise<SignInOutput> =>
  presentPage(r, 200, verifyPage(r.csrf, r.input.query.token ?? ''));

/** `POST /login/verify`: the link is claimed once, its account signed in and sent where the link leads. */
export async function linkVerify(r: SignInRequest): Promise<SignInOutput> {
  const { hash, link, user } = await loadSignInLink(r.ctx.em, r.input.form.token ?? '');
  await throttled(
    r,
    [{ key: `verify:${r.input.address}`, limit: LIMITS.verify }],
    'Too many sign-in links were tried.',
  );
  const now = new Date();
  refuseUnless(link && (await signInLinkClaimer(r.ctx.em, { hash, now })), REFUSED.linkNotValid);
  refuseUnless(user, refusal(410, 'Link not valid', 'This account no longer exists.'));
  r.cookies.push(await signInRecorder(r.ctx.em, signInOf(r, user.id, now)));
  return presentRedirect(r, link.next);
}

/** `GET /invites/accept`: what the invitation offers, with its button. */
export async function inviteShow(r: SignInRequest): Promise<SignInOutput> {
  const token = r.input.query.token ?? '';
  const invite = accepted(await loadInvitation(r.ctx.em, token));
  const organization = await loadOrganizationTitle(r.ctx.em, invite.organizationId);
  return presentPage(r, 200, invitationPage(r.csrf, token, organization, invite.role ?? null));
}

/** `POST /invites/accept`: the invitation is accepted once, its account a member and signed in. */
export async function inviteAccept(r: SignInRequest): Promise<SignInOutput> {
  const found = await loadInvitation(r.ctx.em, r.input.form.token ?? '');
  await throttled(
    r,
    [{ key: `verify:${r.input.address}`, limit: LIMITS.verify }],
    'Too many invitation links were tried.',
  );
  const invite = accepted(found);
  const now = new Date();
  refuseUnless(await inviteAccepter(r.ctx.em, { invite, now }), REFUSED.invitationUsed);
  r.cookies.push(await signInRecorder(r.ctx.em, signInOf(r, invite.userId, now)));
  return presentRedirect(r, '/account');
}

/** `GET /account`: the signed-in account, its organizations, API tokens and invitations. */
export async function accountShow(r: SignedInRequest): Promise<SignInOutput> {
  const account = await loadAccount(r.ctx.em, r.session.userId);
  return presentPage(r, 200, accountPage(r.session.csrf, accountViewOf(account, r.session)));
}

/** `POST /account/tokens`: an API token is issued, shown once on the account page. */
export async function tokenCreate(r: SignedInRequest): Promise<SignInOutput> {
  const label = (r.input.form.label ?? '').trim();
  refuseUnless(
    label && label.length <= 100,
    refusal(400, 'Token not created', 'Give the token a label of 1 to 100 characters.'),
  );
  const account = await loadAccount(r.ctx.em, r.session.userId);
  const created = tokenIssuer(r.ctx.em, { userId: r.session.userId, label });
  return presentPage(r, 201, accountPage(r.session.csrf, accountViewOf(account, r.session, created)));
}

/** `POST /account/tokens/revoke`: one of the account's tokens stops working. */
export async function tokenRevoke(r: SignedInRequest): Promise<SignInOutput> {
  const token = accepted(await loadActiveToken(r.ctx.em, r.session.userId, r.input.form.tokenId ?? ''));
  tokenRevoker(r.ctx.em, { token });
  return presentRedirect(r, '/account');
}

/** `POST /account/sessions/revoke`: one of the account's sessions ends (this browser's: signed out, as `/logout`). */
export async function sessionRevoke(r: SignedInRequest): Promise<SignInOutput> {
  const session = accepted(await loadOwnSession(r.ctx.em, r.session.userId, r.input.form.sessionId ?? ''));
  const cleared = sessionEnder(r.ctx.em, { session });
  if (session.id !== r.session.id) return presentRedirect(r, '/account');
  r.cookies.push(cleared);
  return presentRedirect(r, '/login');
}

/** `POST /account/sessions/revoke-others`: every session of the account but this browser's ends. */
export async function sessionsRevokeOthers(r: SignedInRequest): Promise<SignInOutput> {
  const sessions = await loadLiveSessions(r.ctx.em, r.session.userId);
  sessionsEnder(r.ctx.em, { sessions: sessions.filter((s) => s.id !== r.session.id) });
  return presentRedirect(r, '/account');
}

/** `POST /account/invites/accept`: the signed-in owner accepts an invitation of their account: they join. */
export async function invitationJoin(r: SignedInRequest): Promise<SignInOutput> {
  const invite = accepted(await loadOpenInvitation(r.ctx.em, r.session.userId, r.input.form.inviteId ?? ''));
  refuseUnless(await inviteAccepter(r.ctx.em, { invite, now: new Date() }), REFUSED.invitationNotValid);
  return presentRedirect(r, '/account');
}

/** `POST /logout`: the session ends. */
export async function signOut(r: SignedInRequest): Promise<SignInOutput> {
  r.cookies.push(sessionEnder(r.ctx.em, { session: r.session }));
  return presentRedirect(r, '/login');
}
