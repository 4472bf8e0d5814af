import { mailSender } from '../../commands/mail-sender.ts';
import { sha256Hex } from '@quire/kit';
import type { OperationInput, OperationOutput, ops, Role } from '@quire/contracts';
import { z } from 'zod';
import { membershipSetter } from '../../commands/member-adder.ts';
import { memberSeenRecorder } from '../../commands/member-updater.ts';
import { tokenIssuer, tokenRevoker } from '../../commands/token-issuer.ts';
import type { OrgAdminContext } from '../../trpc.ts';
import { Membership, Organization } from '../organizations/organization.entity.ts';
import { ApiToken } from '../tokens/api-token.entity.ts';
import { tokenRepository } from '../tokens/token.repository.ts';
import { User } from '../users/user.entity.ts';
import {
  CSRF_COOKIE,
  cookie,
  randomToken,
  same,
  sessionEnder,
  sessionOf,
  sessionStarter,
} from '../sessions/sessions.ts';
import type { ISession } from '../sessions/session.entity.ts';
import { accountPage, form, hidden, layout, loginPage, paragraph } from './pages.ts';
import { Invite, SignInLink, type IInvite } from './sign-in.entity.ts';
import { attemptAllowed, LIMITS } from './throttle.ts';
import { ssoIdentityLinker, ssoMemberProvisioner } from '../../commands/sso-member-provisioner.ts';
import { ssoLinkClaimer, ssoLinkRequester } from '../../commands/sso-link-requester.ts';
import { loadOpenInvitation, pendingInvitationsOf } from './account-invites.ts';
import { loadSsoLink, ssoLinkFirstPage, ssoLinkPage, type SsoProviderView } from './sso-link.ts';
import { OidcProvider, SsoFlow, type ISsoFlow } from '../oidc/oidc-provider.entity.ts';
import { FLOW_TTL_MS, ssoCookie, ssoCookieCleared, type SsoPrepared } from './sso.ts';
import { SamlAssertion } from '../oidc/oidc-provider.entity.ts';
import { SamlProvider, type ISamlProvider } from '../saml/saml-provider.entity.ts';
import { samlAuthnRequest, samlMetadata, samlValidate, SAML_REQUEST_TTL_MS } from '../saml/saml-sign-in.ts';
import { samlStatus } from '../saml/saml.presenter.ts';

type Input = OperationInput<typeof ops.handleSignInRequest>;
type Output = OperationOutput<typeof ops.handleSignInRequest>;
export const LINK_TTL_MS = 15 * 60 * 1000;
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; style-src 'self'; font-src 'self'; img-src 'self'; form-action 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'",
};

interface Req {
  ctx: OrgAdminContext;
  input: Input;
  session: ISession | null;
  /** The CSRF token forms must carry: the session's, or the double-submit cookie's before sign-in. */
  csrf: string;
  cookies: string[];
}

const html = (r: Req, status: number, body: string): Output => ({ status, headers: HEADERS, cookies: r.cookies, body });
const redirect = (r: Req, location: string): Output => ({
  status: 303,
  headers: { location, 'cache-control': 'no-store' },
  cookies: r.cookies,
  body: '',
});
const message = (r: Req, status: number, title: string, text: string) =>
  html(r, status, layout(title, paragraph(text) + '<p><a href="/login">Go to sign in</a></p>'));

/** `?next=`: a path of this site only (`/…`, not `//host` nor `/\host`), else the account page. */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/account';
  if (/[\u0000-\u001f\\]/.test(next)) return '/account';
  const base = 'http://quire.invalid';
  const url = new URL(next, base);
  const path = url.pathname + url.search + url.hash;
  // `/.//host` normalizes to `//host`: checked again after parsing.
  return url.origin === base && !path.startsWith('//') ? path : '/account';
}

const Email = z.email().max(254);

/** Starts a session for the user and records the sign-in as their last visit to each of their organizations. */
async function signIn(r: Req, userId: string, now: Date): Promise<void> {
  r.cookies.push(await sessionStarter(r.ctx.em, r.ctx.config, userId, now));
  for (const membership of await r.ctx.em.find(Membership, { userId }))
    memberSeenRecorder(r.ctx.em, { membership, now });
}

async function requestLink(r: Req): Promise<Output> {
  const next = safeNext(r.input.form.next);
  const email = Email.safeParse((r.input.form.email ?? '').trim().toLowerCase());
  if (!email.success) return html(r, 400, loginPage(r.csrf, next, 'Enter a valid e-mail address.'));
  const allowed = await attemptAllowed(r.ctx.em, [
    { key: `address:${r.input.address}`, limit: LIMITS.address },
    { key: `account:${email.data}`, limit: LIMITS.account },
  ]);
  if (!allowed) return message(r, 429, 'Too many attempts', 'Too many sign-in links were asked for. Wait 15 minutes.');
  const user = await r.ctx.em.findOne(User, { email: email.data });
  if (user) {
    const token = randomToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
    r.ctx.em.create(SignInLink, {
      hash: sha256Hex(token),
      email: email.data,
      next,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    const link = `${r.ctx.config.QUIRE_PUBLIC_URL.replace(/\/$/, '')}/login/verify?token=${token}`;
    await mailSender(r.ctx.em, r.ctx, {
      kind: 'sign-in',
      expiresAt,
      to: email.data,
      subject: 'Your Quire sign-in link',
      text: `Open this link to sign in to Quire (valid 15 minutes, once):\n\n${link}\n`,
      link,
    });
  }
  // The same answer whether or not the address has an account: the page tells nobody who is registered.
  return message(r, 200, 'Check your e-mail', `If ${email.data} has an account, a sign-in link is on its way.`);
}

function verifyPage(r: Req): Output {
  const token = r.input.query.token ?? '';
  return html(
    r,
    200,
    layout(
      'Sign in',
      paragraph('Confirm to sign in to Quire.') + form('/login/verify', r.csrf, hidden('token', token), 'Sign in'),
    ),
  );
}

async function verify(r: Req): Promise<Output> {
  if (!(await attemptAllowed(r.ctx.em, [{ key: `verify:${r.input.address}`, limit: LIMITS.verify }])))
    return message(r, 429, 'Too many attempts', 'Too many sign-in links were tried. Wait 15 minutes.');
  const hash = sha256Hex(r.input.form.token ?? '');
  const now = new Date();
  const link = await r.ctx.em.findOne(SignInLink, { hash });
  // Claimed by a conditional update: of two requests racing with the same link, only one signs in.
  const claimed =
    link && (await r.ctx.em.nativeUpdate(SignInLink, { hash, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now }));
  if (!link || claimed !== 1)
    return message(r, 410, 'Link not valid', 'This sign-in link is expired, already used or wrong. Ask for a new one.');
  const user = await r.ctx.em.findOne(User, { email: link.email });
  if (!user) return message(r, 410, 'Link not valid', 'This account no longer exists.');
  await signIn(r, user.id, now);
  return redirect(r, link.next);
}

type InviteCheck = { ok: true; invite: IInvite } | { ok: false; out: Output };

async function loadInvite(r: Req, token: string): Promise<InviteCheck> {
  const invite = await r.ctx.em.findOne(Invite, { hash: sha256Hex(token) });
  const fail = (status: number, title: string, text: string) => ({
    ok: false as const,
    out: message(r, status, title, text),
  });
  if (!invite) return fail(404, 'Invitation not found', 'This invitation link is not valid.');
  if (invite.usedAt) return fail(410, 'Invitation already used', 'This invitation was already accepted: sign in.');
  const member = await r.ctx.em.findOne(Membership, { organizationId: invite.organizationId, userId: invite.userId });
  // An invitation of a new account was revoked by removing the member; one of an existing account makes it one.
  if (invite.revokedAt || (!member && !invite.joins))
    return fail(410, 'Invitation revoked', 'This invitation was withdrawn. Ask an administrator for a new one.');
  if (invite.expiresAt <= new Date())
    return fail(410, 'Invitation expired', 'This invitation has expired. Ask an administrator for a new one.');
  return { ok: true, invite };
}

async function invitePage(r: Req): Promise<Output> {
  const token = r.input.query.token ?? '';
  const check = await loadInvite(r, token);
  if (!check.ok) return check.out;
  const org = await r.ctx.em.findOneOrFail(Organization, { id: check.invite.organizationId });
  const text = `You are invited to join ${org.title} with the role ${check.invite.role ?? 'guest'}.`;
  return html(
    r,
    200,
    layout(
      'Invitation',
      paragraph(text) + form('/invites/accept', r.csrf, hidden('token', token), 'Accept and sign in'),
    ),
  );
}

async function acceptInvite(r: Req): Promise<Output> {
  if (!(await attemptAllowed(r.ctx.em, [{ key: `verify:${r.input.address}`, limit: LIMITS.verify }])))
    return message(r, 429, 'Too many attempts', 'Too many invitation links were tried. Wait 15 minutes.');
  const check = await loadInvite(r, r.input.form.token ?? '');
  if (!check.ok) return check.out;
  const invite = check.invite;
  const now = new Date();
  if ((await r.ctx.em.nativeUpdate(Invite, { id: invite.id, usedAt: null }, { usedAt: now })) !== 1)
    return message(r, 410, 'Invitation already used', 'This invitation was already accepted: sign in.');
  await membershipSetter(r.ctx.em, {
    organizationId: invite.organizationId,
    userId: invite.userId,
    role: invite.role ?? null,
  });
  await signIn(r, invite.userId, now);
  return redirect(r, '/account');
}

async function account(r: Req, session: ISession, created?: { label: string; token: string }): Promise<Output> {
  const em = r.ctx.em;
  const user = await em.findOneOrFail(User, { id: session.userId });
  const memberships = await em.find(Membership, { userId: user.id }, { orderBy: { joinedAt: 'asc' } });
  const orgs = memberships.length
    ? await em.find(Organization, { id: { $in: memberships.map((m) => m.organizationId) } })
    : [];
  const titles = new Map(orgs.map((o) => [o.id, o.title]));
  const tokens = await em.find(
    ApiToken,
    { userId: user.id, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  const view = {
    name: user.displayName,
    email: user.email,
    organizations: memberships.map((m) => ({
      id: m.organizationId,
      title: titles.get(m.organizationId) ?? m.organizationId,
      role: m.role ?? 'guest',
    })),
    tokens: tokens.map((t) => ({ id: t.id, label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt ?? null })),
    ...(created ? { created } : {}),
    invitations: await pendingInvitationsOf(em, user.id),
  };
  return html(r, created ? 201 : 200, accountPage(session.csrf, view));
}

/** The signed-in owner accepts an invitation of their account from the account page: they join the organization. */
async function joinFromAccount(r: Req, session: ISession): Promise<Output> {
  const invite = await loadOpenInvitation(r.ctx.em, session.userId, r.input.form.inviteId ?? '');
  const now = new Date();
  if (!invite || (await r.ctx.em.nativeUpdate(Invite, { id: invite.id, usedAt: null }, { usedAt: now })) !== 1)
    return message(r, 410, 'Invitation not valid', 'This invitation is used, withdrawn, expired or not yours.');
  await membershipSetter(r.ctx.em, {
    organizationId: invite.organizationId,
    userId: invite.userId,
    role: invite.role ?? null,
  });
  return redirect(r, '/account');
}

async function createToken(r: Req, session: ISession): Promise<Output> {
  const label = (r.input.form.label ?? '').trim();
  if (!label || label.length > 100)
    return message(r, 400, 'Token not created', 'Give the token a label of 1 to 100 characters.');
  const { token } = tokenIssuer(r.ctx.em, { userId: session.userId, label });
  await r.ctx.em.flush();
  return account(r, session, { label, token });
}

async function revokeToken(r: Req, session: ISession): Promise<Output> {
  const token = await tokenRepository.findActiveOf(r.ctx.em, session.userId, r.input.form.tokenId ?? '');
  if (!token) return message(r, 404, 'Token not found', 'This token does not exist or was already revoked.');
  tokenRevoker(r.ctx.em, { token });
  return redirect(r, '/account');
}

/** The pages for a signed-in person; without a session, the sign-in page (coming back here after). */
async function signedIn(r: Req, path: string): Promise<Output> {
  const session = r.session;
  if (!session) return redirect(r, `/login?next=${encodeURIComponent(path)}`);
  if (r.input.method === 'GET' && path === '/account') return account(r, session);
  if (path === '/account/tokens') return createToken(r, session);
  if (path === '/account/tokens/revoke') return revokeToken(r, session);
  if (path === '/sso/link') return confirmSsoLink(r, session);
  if (path === '/account/invites/accept') return joinFromAccount(r, session);
  if (path === '/logout') {
    r.cookies.push(sessionEnder(session));
    return redirect(r, '/login');
  }
  return message(r, 404, 'Page not found', 'There is no such page.');
}

const POSTS = new Set([
  '/login',
  '/login/verify',
  '/invites/accept',
  '/logout',
  '/account/tokens',
  '/account/tokens/revoke',
  '/account/invites/accept',
  '/sso/link',
]);

/** The single sign-on methods of an organization, for its login page (`/login?organization=<id>`). */
async function ssoMethods(r: Req, next: string): Promise<{ label: string; href: string }[]> {
  const organizationId = r.input.query.organization;
  if (!organizationId) return [];
  const providers = await r.ctx.em.find(OidcProvider, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const saml = await r.ctx.em.find(SamlProvider, { organizationId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const q = next === '/account' ? '' : `?next=${encodeURIComponent(next)}`;
  return [
    ...saml.filter((p) => samlStatus(p) === 'active').map((p) => ({ label: p.label, href: `/saml/${p.id}/start${q}` })),
    ...providers.map((p) => ({ label: p.label, href: `/oidc/${p.id}/start${q}` })),
  ];
}

/** A 429 page when the address started too many sign-ins with an identity provider; null when it may start one. */
const ssoStartRefused = async (r: Req): Promise<Output | null> =>
  (await attemptAllowed(r.ctx.em, [{ key: `sso:${r.input.address}`, limit: LIMITS.address * 3 }]))
    ? null
    : message(r, 429, 'Too many attempts', 'Too many sign-ins were started. Wait 15 minutes.');

/**
 * A sign-in with an identity provider begins: its flow (the hash of its state or RelayState, what the callback
 * checks) is stored until `ttlMs`, and expired flows are dropped.
 */
async function ssoFlowStarter(
  r: Req,
  flow: Pick<ISsoFlow, 'kind' | 'providerId' | 'codeVerifier' | 'nonce' | 'requestId'> & { state: string },
  ttlMs: number,
  now: Date,
): Promise<void> {
  const { state, ...rest } = flow;
  r.ctx.em.create(SsoFlow, {
    ...rest,
    hash: sha256Hex(state),
    next: safeNext(r.input.query.next),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
    usedAt: null,
  });
  await r.ctx.em.nativeDelete(SsoFlow, { expiresAt: { $lt: now } });
}

/** The end of a sign-in with an identity provider, in the transaction: what `prepareSso` found is acted on. */
async function finishSso(r: Req, prepared: SsoPrepared): Promise<Output> {
  if (prepared.kind === 'fail') return message(r, prepared.status, prepared.title, prepared.text);
  const now = new Date();
  if (prepared.kind === 'oidc-start') {
    const refused = await ssoStartRefused(r);
    if (refused) return refused;
    const { state, providerId, codeVerifier, nonce } = prepared;
    await ssoFlowStarter(
      r,
      { kind: 'oidc', state, providerId, codeVerifier, nonce, requestId: null },
      FLOW_TTL_MS,
      now,
    );
    r.cookies.push(await ssoCookie(r.ctx.config, prepared.state));
    return redirect(r, prepared.url);
  }
  r.cookies.push(ssoCookieCleared);
  const flow = await r.ctx.em.findOne(SsoFlow, { hash: prepared.flowHash });
  // Claimed once: the same callback replayed (or racing) signs in nobody a second time.
  const claimed =
    flow &&
    (await r.ctx.em.nativeUpdate(
      SsoFlow,
      { hash: prepared.flowHash, usedAt: null, expiresAt: { $gt: now } },
      { usedAt: now },
    ));
  if (!flow || claimed !== 1)
    return message(r, 410, 'Sign-in expired', 'This sign-in is expired or already used. Start again.');
  const provider = await r.ctx.em.findOne(OidcProvider, { id: prepared.providerId });
  if (!provider) return message(r, 404, 'Sign-in not found', 'This single sign-on does not exist (any more).');
  const { identity } = prepared;
  if (!identity.emailVerified)
    return message(
      r,
      403,
      'E-mail not verified',
      'The identity provider did not give a verified e-mail address: you cannot be signed in.',
    );
  return ssoSignIn(r, 'oidc', provider, identity, flow.next, now);
}

/** Signs in the person an identity provider vouched for: just-in-time membership, then a session. */
async function ssoSignIn(
  r: Req,
  kind: 'oidc' | 'saml',
  provider: SsoProviderView,
  identity: { subject: string; email: string | null; name: string | null },
  next: string,
  now: Date,
): Promise<Output> {
  const email = identity.email ? Email.safeParse(identity.email) : null;
  if (!email?.success)
    return message(
      r,
      403,
      'E-mail not verified',
      'The identity provider did not give a verified e-mail address: you cannot be signed in.',
    );
  const result = await ssoMemberProvisioner(r.ctx.em, {
    organizationId: provider.organizationId,
    providerId: provider.id,
    subject: identity.subject,
    email: email.data,
    name: identity.name,
    defaultRole: provider.defaultRole ?? null,
    defaultTeamId: provider.defaultTeamId ?? null,
  });
  if (!result.ok) return ssoLinkAsked(r, { kind, provider, identity, userId: result.userId, next });
  if (r.session) r.cookies.push(sessionEnder(r.session, now));
  await signIn(r, result.userId, now);
  return redirect(r, next);
}

/**
 * An identity asserting the e-mail of an existing account, without the organization's proof of the domain: the link
 * is only asked for (10 minutes) and the browser sent to `/sso/link`, a same-site GET (a SAML response is a
 * cross-site POST, which carries no `SameSite=Lax` session). Nothing is linked and nobody is signed in here.
 */
async function ssoLinkAsked(
  r: Req,
  a: { kind: 'oidc' | 'saml'; provider: SsoProviderView; identity: { subject: string; name: string | null } } & {
    userId: string;
    next: string;
  },
): Promise<Output> {
  const token = await ssoLinkRequester(r.ctx.em, {
    kind: a.kind,
    providerId: a.provider.id,
    subject: a.identity.subject,
    userId: a.userId,
    name: a.identity.name,
    next: a.next,
  });
  return redirect(r, `/sso/link?token=${token}`);
}

/**
 * The page of a link asked for: to the signed-in owner of the account, the confirmation (linking takes a click on
 * it, `confirmSsoLink`); to anyone else, 409: sign in to that account first.
 */
async function ssoLinkShow(r: Req): Promise<Output> {
  const token = r.input.query.token ?? '';
  const check = await loadSsoLink(r.ctx.em, token);
  if (!check.ok) return message(r, check.status, check.title, check.text);
  const { link, provider, organization, email } = check;
  const names = { organization, provider: provider.label, email };
  if (r.session?.userId !== link.userId)
    return html(r, 409, ssoLinkFirstPage({ ...names, start: `/${link.kind}/${provider.id}/start` }));
  return html(r, 200, ssoLinkPage(r.session.csrf, { ...names, role: provider.defaultRole ?? null, token }));
}

/** The owner's click on the confirmation page: the identity is linked to their account, then they are signed in. */
async function confirmSsoLink(r: Req, session: ISession): Promise<Output> {
  const check = await loadSsoLink(r.ctx.em, r.input.form.token ?? '');
  if (!check.ok) return message(r, check.status, check.title, check.text);
  const { link, provider } = check;
  const now = new Date();
  if (link.userId !== session.userId || !(await ssoLinkClaimer(r.ctx.em, link, now)))
    return message(r, 410, 'Link not valid', 'This request to link an account is not yours or already used.');
  await ssoIdentityLinker(r.ctx.em, {
    organizationId: provider.organizationId,
    providerId: provider.id,
    subject: link.subject,
    userId: session.userId,
    defaultRole: provider.defaultRole ?? null,
    defaultTeamId: provider.defaultTeamId ?? null,
  });
  r.cookies.push(sessionEnder(session, now));
  await signIn(r, session.userId, now);
  return redirect(r, link.next);
}

const SAML_PATH = /^\/saml\/([A-Za-z0-9_-]{1,100})\/(metadata|start|acs)$/;

/** SAML 2.0 (SP-initiated): Quire's SP metadata, the AuthnRequest, and the assertion consumer service. */
async function saml(r: Req, providerId: string, step: 'metadata' | 'start' | 'acs'): Promise<Output> {
  const provider = await r.ctx.em.findOne(SamlProvider, { id: providerId });
  if (!provider || (step !== 'metadata' && samlStatus(provider) !== 'active'))
    return message(
      r,
      404,
      'Sign-in not found',
      'This single sign-on does not exist (any more) or is not configured yet.',
    );
  if (step === 'metadata')
    return {
      status: 200,
      headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-store' },
      cookies: [],
      body: samlMetadata(r.ctx.urls, provider),
    };
  return step === 'start' ? samlStart(r, provider) : samlAssertionConsumer(r, provider);
}

/** The AuthnRequest: the flow (its RelayState) is stored, the browser sent to the identity provider. */
async function samlStart(r: Req, provider: ISamlProvider): Promise<Output> {
  const refused = await ssoStartRefused(r);
  if (refused) return refused;
  const relayState = randomToken();
  const request = await samlAuthnRequest(r.ctx.urls, provider, relayState);
  const flow = { state: relayState, providerId: provider.id, codeVerifier: null, nonce: null };
  await ssoFlowStarter(r, { kind: 'saml', ...flow, requestId: request.requestId }, SAML_REQUEST_TTL_MS, new Date());
  return redirect(r, request.url);
}

/** The identity in the identity provider's signed response to `requestId`; null (logged) when it does not verify. */
async function samlIdentityOf(r: Req, provider: ISamlProvider, flow: ISsoFlow & { requestId: string }) {
  try {
    return await samlValidate(r.ctx.urls, provider, r.input.form.SAMLResponse ?? '', flow.requestId, flow.createdAt);
  } catch (err) {
    r.ctx.log.warn({ err: { message: (err as Error).message }, provider: provider.id }, 'SAML response refused');
    return null;
  }
}

/**
 * The assertion consumer service: the identity provider's POST carries no CSRF token of ours; the signed
 * assertion, InResponseTo our own request (its RelayState) and the one-time claim of both stand for it.
 */
async function samlAssertionConsumer(r: Req, provider: ISamlProvider): Promise<Output> {
  if (!(await attemptAllowed(r.ctx.em, [{ key: `verify:${r.input.address}`, limit: LIMITS.verify * 3 }])))
    return message(r, 429, 'Too many attempts', 'Too many sign-ins were tried. Wait 15 minutes.');
  const now = new Date();
  const hash = sha256Hex(r.input.form.RelayState ?? '');
  const flow = await r.ctx.em.findOne(SsoFlow, { hash, kind: 'saml', providerId: provider.id });
  if (!flow || flow.usedAt || flow.expiresAt <= now || !flow.requestId)
    return message(
      r,
      410,
      'Sign-in expired',
      'This sign-in is expired, already used or was not started here. Start again.',
    );
  const identity = await samlIdentityOf(r, provider, { ...flow, requestId: flow.requestId });
  if (!identity)
    return message(
      r,
      401,
      'Sign-in not verified',
      'The answer of the identity provider could not be verified. Start again.',
    );
  if ((await r.ctx.em.nativeUpdate(SsoFlow, { hash, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now })) !== 1)
    return message(r, 410, 'Sign-in expired', 'This sign-in is expired or already used. Start again.');
  const assertionKey = `${provider.id}:${identity.assertionId}`;
  if (await r.ctx.em.findOne(SamlAssertion, { id: assertionKey }))
    return message(
      r,
      410,
      'Sign-in already used',
      'This answer of the identity provider was already used. Start again.',
    );
  r.ctx.em.create(SamlAssertion, { id: assertionKey, expiresAt: identity.expiresAt });
  await r.ctx.em.nativeDelete(SamlAssertion, { expiresAt: { $lt: now } });
  return ssoSignIn(r, 'saml', provider, identity, flow.next, now);
}

/** One request to the sign-in pages: GET pages, POST forms (each checked for its CSRF token). */
export async function handleSignIn(
  ctx: OrgAdminContext,
  input: Input,
  prepared: SsoPrepared | null = null,
): Promise<Output> {
  const session = await sessionOf(ctx.em, ctx.config, input.cookies);
  const r: Req = { ctx, input, session, csrf: session?.csrf ?? input.cookies[CSRF_COOKIE] ?? '', cookies: [] };
  if (!session && !/^[A-Za-z0-9_-]{43}$/.test(r.csrf)) {
    r.csrf = randomToken();
    r.cookies.push(cookie(ctx.config, CSRF_COOKIE, r.csrf, 24 * 60 * 60));
  }
  const path = input.path.replace(/\/+$/, '') || '/';
  if (prepared) return finishSso(r, prepared);
  const samlPath = SAML_PATH.exec(path);
  if (samlPath && (input.method === 'POST') === (samlPath[2] === 'acs'))
    return saml(r, samlPath[1]!, samlPath[2] as 'metadata' | 'start' | 'acs');
  if (input.method === 'POST') {
    if (!POSTS.has(path)) return message(r, 404, 'Page not found', 'There is no such page.');
    if (!same(input.form._csrf ?? '', r.csrf))
      return message(
        r,
        403,
        'Form expired',
        'This form was not sent from this site or has expired. Reload and try again.',
      );
    if (path === '/login') return requestLink(r);
    if (path === '/login/verify') return verify(r);
    if (path === '/invites/accept') return acceptInvite(r);
    return signedIn(r, path);
  }
  if (path === '/login')
    return session
      ? redirect(r, safeNext(input.query.next))
      : html(
          r,
          200,
          loginPage(r.csrf, safeNext(input.query.next), undefined, await ssoMethods(r, safeNext(input.query.next))),
        );
  if (path === '/login/verify') return verifyPage(r);
  if (path === '/invites/accept') return invitePage(r);
  if (path === '/sso/link') return ssoLinkShow(r);
  if (path === '/account') return signedIn(r, path);
  return message(r, 404, 'Page not found', 'There is no such page.');
}
