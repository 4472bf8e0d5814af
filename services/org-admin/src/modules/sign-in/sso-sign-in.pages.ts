// The pages of a sign-in with an identity provider (OpenID Connect, SAML) and of linking it to an existing account:
// each loads, runs its commands, then presents; a refusal is thrown and answered by the handler.
import { sessionEnder, signInRecorder } from '../../commands/session-starter.ts';
import { LIMITS } from '../../commands/sign-in-attempt-recorder.ts';
import { samlAssertionRecorder, ssoFlowClaimer, ssoFlowStarter } from '../../commands/sso-flow-starter.ts';
import { ssoLinkClaimer, ssoLinkRequester } from '../../commands/sso-link-requester.ts';
import { ssoIdentityLinker, ssoMemberProvisioner } from '../../commands/sso-member-provisioner.ts';
import type { ISamlProvider } from '../saml/saml-provider.entity.ts';
import type { ISsoFlow } from '../oidc/oidc-provider.entity.ts';
import { samlAuthnRequest, samlValidate, SAML_REQUEST_TTL_MS, type SamlIdentity } from '../saml/saml-sign-in.ts';
import { randomToken } from '../sessions/sessions.ts';
import {
  emailOf,
  loadOidcCallback,
  loadSamlFlow,
  loadSamlProvider,
  loadSsoLink,
  type SsoProviderView,
} from './sign-in.loader.ts';
import { throttled } from './sign-in.pages.ts';
import { presentRedirect, presentSamlMetadata, presentSsoLink } from './sign-in.presenter.ts';
import {
  accepted,
  REFUSED,
  refusal,
  refuseUnless,
  safeNext,
  signInOf,
  type SignedInRequest,
  type SignInOutput,
  type SignInRefusal,
  type SignInRequest,
} from './sign-in-request.ts';
import { FLOW_TTL_MS, ssoCookie, ssoCookieCleared, type SsoPrepared } from './sso.ts';

const ssoStartKeys = (r: SignInRequest) => [{ key: `sso:${r.input.address}`, limit: LIMITS.address * 3 }];

/** The end of an OpenID Connect step, in the transaction: what `prepareSso` found (outside it) is acted on. */
export async function ssoFinish(r: SignInRequest, prepared: SsoPrepared): Promise<SignInOutput> {
  if (prepared.kind === 'fail') throw refusal(prepared.status, prepared.title, prepared.text);
  return prepared.kind === 'oidc-start' ? oidcStart(r, prepared) : oidcCallback(r, prepared);
}

/** `GET /oidc/{id}/start`: the flow is stored, bound to this browser by its cookie, and the browser sent away. */
async function oidcStart(r: SignInRequest, prepared: SsoPrepared & { kind: 'oidc-start' }): Promise<SignInOutput> {
  await throttled(r, ssoStartKeys(r), 'Too many sign-ins were started.');
  const { state, providerId, codeVerifier, nonce } = prepared;
  await ssoFlowStarter(r.ctx.em, {
    flow: { kind: 'oidc', state, providerId, codeVerifier, nonce, requestId: null },
    next: safeNext(r.input.query.next),
    ttlMs: FLOW_TTL_MS,
  });
  r.cookies.push(await ssoCookie(r.ctx.config, state));
  return presentRedirect(r, prepared.url);
}

/** `GET /oidc/{id}/callback`: the flow is claimed once, then the person the provider vouched for signed in. */
async function oidcCallback(r: SignInRequest, prepared: SsoPrepared & { kind: 'oidc-callback' }) {
  r.cookies.push(ssoCookieCleared);
  const { flow, provider } = await loadOidcCallback(r.ctx.em, prepared);
  const now = new Date();
  refuseUnless(flow && (await ssoFlowClaimer(r.ctx.em, { hash: prepared.flowHash, now })), REFUSED.ssoUsed);
  refuseUnless(provider, refusal(404, 'Sign-in not found', 'This single sign-on does not exist (any more).'));
  refuseUnless(prepared.identity.emailVerified, REFUSED.emailNotVerified);
  return ssoSignIn(r, { kind: 'oidc', provider, identity: prepared.identity, next: flow.next, now });
}

interface SsoSignIn {
  kind: 'oidc' | 'saml';
  provider: SsoProviderView;
  identity: { subject: string; email: string | null; name: string | null };
  next: string;
  now: Date;
}

/**
 * Signs in the person an identity provider vouched for: just-in-time membership, then a session. An identity
 * asserting the e-mail of an existing account, without the organization's proof of the domain, only asks for the
 * link (10 minutes) and sends the browser to `/sso/link`, a same-site GET (a SAML response is a cross-site POST,
 * which carries no `SameSite=Lax` session): nothing is linked and nobody is signed in then.
 */
async function ssoSignIn(r: SignInRequest, { kind, provider, identity, next, now }: SsoSignIn): Promise<SignInOutput> {
  const email = emailOf(identity.email);
  refuseUnless(email, REFUSED.emailNotVerified);
  const result = await ssoMemberProvisioner(r.ctx.em, {
    organizationId: provider.organizationId,
    providerId: provider.id,
    subject: identity.subject,
    email,
    name: identity.name,
    defaultRole: provider.defaultRole ?? null,
    defaultTeamId: provider.defaultTeamId ?? null,
  });
  if (!result.ok) {
    const asked = { kind, providerId: provider.id, subject: identity.subject, name: identity.name, next };
    const token = await ssoLinkRequester(r.ctx.em, { ...asked, userId: result.userId });
    return presentRedirect(r, `/sso/link?token=${token}`);
  }
  if (r.session) r.cookies.push(sessionEnder(r.ctx.em, { session: r.session, now }));
  r.cookies.push(await signInRecorder(r.ctx.em, signInOf(r, result.userId, now)));
  return presentRedirect(r, next);
}

/**
 * `GET /sso/link`: the page of a link asked for: to the signed-in owner of the account, the confirmation (linking
 * takes a click on it); to anyone else, 409: sign in to that account first.
 */
export async function ssoLinkShow(r: SignInRequest): Promise<SignInOutput> {
  const token = r.input.query.token ?? '';
  return presentSsoLink(r, accepted(await loadSsoLink(r.ctx.em, token)), token);
}

/** `POST /sso/link`: the owner's click on the confirmation: the identity is linked to their account, then signed in. */
export async function ssoLinkConfirm(r: SignedInRequest): Promise<SignInOutput> {
  const { link, provider } = accepted(await loadSsoLink(r.ctx.em, r.input.form.token ?? ''));
  const now = new Date();
  refuseUnless(
    link.userId === r.session.userId && (await ssoLinkClaimer(r.ctx.em, link, now)),
    refusal(410, 'Link not valid', 'This request to link an account is not yours or already used.'),
  );
  await ssoIdentityLinker(r.ctx.em, {
    organizationId: provider.organizationId,
    providerId: provider.id,
    subject: link.subject,
    userId: r.session.userId,
    defaultRole: provider.defaultRole ?? null,
    defaultTeamId: provider.defaultTeamId ?? null,
  });
  r.cookies.push(sessionEnder(r.ctx.em, { session: r.session, now }));
  r.cookies.push(await signInRecorder(r.ctx.em, signInOf(r, r.session.userId, now)));
  return presentRedirect(r, link.next);
}

/** `GET /saml/{id}/metadata`: Quire's SP metadata for the provider (to paste into the identity provider). */
export async function samlMetadataShow(r: SignInRequest, providerId: string): Promise<SignInOutput> {
  return presentSamlMetadata(r.ctx.urls, accepted(await loadSamlProvider(r.ctx.em, providerId, 'metadata')));
}

/** `GET /saml/{id}/start`: the AuthnRequest: the flow (its RelayState) is stored, the browser sent to the provider. */
export async function samlStart(r: SignInRequest, providerId: string): Promise<SignInOutput> {
  const provider = accepted(await loadSamlProvider(r.ctx.em, providerId, 'start'));
  await throttled(r, ssoStartKeys(r), 'Too many sign-ins were started.');
  const relayState = randomToken();
  const request = await samlAuthnRequest(r.ctx.urls, provider, relayState);
  await ssoFlowStarter(r.ctx.em, {
    flow: {
      kind: 'saml',
      state: relayState,
      providerId: provider.id,
      codeVerifier: null,
      nonce: null,
      requestId: request.requestId,
    },
    next: safeNext(r.input.query.next),
    ttlMs: SAML_REQUEST_TTL_MS,
  });
  return presentRedirect(r, request.url);
}

/**
 * `POST /saml/{id}/acs`, the assertion consumer service: the identity provider's POST carries no CSRF token of ours;
 * the signed assertion, InResponseTo our own request (its RelayState) and the one-time claim of both stand for it.
 * The response is verified only once the attempt is counted.
 */
export async function samlAcs(r: SignInRequest, providerId: string): Promise<SignInOutput> {
  const provider = accepted(await loadSamlProvider(r.ctx.em, providerId, 'acs'));
  const now = new Date();
  const found = await loadSamlFlow(r.ctx.em, provider, r.input.form.RelayState ?? '', now);
  await throttled(r, [{ key: `verify:${r.input.address}`, limit: LIMITS.verify * 3 }], 'Too many sign-ins were tried.');
  const flow = accepted(found);
  const identity = accepted(await samlIdentityOf(r, provider, flow));
  refuseUnless(await ssoFlowClaimer(r.ctx.em, { hash: flow.hash, now }), REFUSED.ssoUsed);
  refuseUnless(
    await samlAssertionRecorder(r.ctx.em, {
      id: `${provider.id}:${identity.assertionId}`,
      expiresAt: identity.expiresAt,
      now,
    }),
    refusal(410, 'Sign-in already used', 'This answer of the identity provider was already used. Start again.'),
  );
  return ssoSignIn(r, { kind: 'saml', provider, identity, next: flow.next, now });
}

/**
 * The identity in the identity provider's signed response to the flow's request, refused (and logged) when it does
 * not verify: a check of what the request carries, made once its attempt is counted (no database read).
 */
async function samlIdentityOf(
  r: SignInRequest,
  provider: ISamlProvider,
  flow: ISsoFlow & { requestId: string },
): Promise<SamlIdentity | SignInRefusal> {
  try {
    return await samlValidate(r.ctx.urls, provider, r.input.form.SAMLResponse ?? '', flow.requestId, flow.createdAt);
  } catch (err) {
    r.ctx.log.warn({ err: { message: (err as Error).message }, provider: provider.id }, 'SAML response refused');
    return refusal(
      401,
      'Sign-in not verified',
      'The answer of the identity provider could not be verified. Start again.',
    );
  }
}
