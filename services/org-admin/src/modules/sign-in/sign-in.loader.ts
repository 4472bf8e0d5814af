import type { Role } from '@quire/contracts';
import { sha256Hex, type EntityManager } from '@quire/kit';
import { z } from 'zod';
import type { OrgAdminContext } from '../../trpc.ts';
import {
  OidcProvider,
  SsoFlow,
  SsoIdentity,
  SsoLink,
  type ISsoFlow,
  type ISsoLink,
} from '../oidc/oidc-provider.entity.ts';
import { Membership, Organization } from '../organizations/organization.entity.ts';
import { SamlProvider, type ISamlProvider } from '../saml/saml-provider.entity.ts';
import { samlStatus } from '../saml/saml.presenter.ts';
import type { ISession } from '../sessions/session.entity.ts';
import { loadLiveSessions } from '../sessions/session.loader.ts';
import { CSRF_COOKIE, cookie, isLive, randomToken, sessionOf } from '../sessions/sessions.ts';
import { Session } from '../sessions/session.entity.ts';
import { ApiToken, type IApiToken } from '../tokens/api-token.entity.ts';
import { tokenRepository } from '../tokens/token.repository.ts';
import { User, type IUser } from '../users/user.entity.ts';
import { Invite, SignInLink, type IInvite, type ISignInLink } from './sign-in.entity.ts';
import { REFUSED, refusal, type SignInInput, type SignInRefusal, type SignInRequest } from './sign-in-request.ts';

// The loaders of the sign-in pages: they read, and answer what they found or the refusal it calls for (a
// `SignInRefusal`, returned rather than thrown so that a page counts an attempt against its throttle first).

const CSRF_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A request to the sign-in pages: its live session (idle time renewed) and the CSRF token its forms carry, the
 * session's or, before sign-in, the double-submit cookie's (a new one set when the browser has none).
 */
export async function loadSignInRequest(ctx: OrgAdminContext, input: SignInInput): Promise<SignInRequest> {
  const session = await sessionOf(ctx.em, ctx.config, input.cookies);
  const csrf = session?.csrf ?? input.cookies[CSRF_COOKIE] ?? '';
  if (session || CSRF_TOKEN.test(csrf)) return { ctx, input, session, csrf, cookies: [] };
  const fresh = randomToken();
  return { ctx, input, session, csrf: fresh, cookies: [cookie(ctx.config, CSRF_COOKIE, fresh, 24 * 60 * 60)] };
}

const Email = z.email().max(254);

/** `text` when it is an e-mail address (at most 254 characters), else null. */
export const emailOf = (text: string | null | undefined): string | null => {
  const parsed = Email.safeParse(text ?? '');
  return parsed.success ? parsed.data : null;
};

/** The account of an e-mail address, null when there is none. */
export const loadUserByEmail = (em: EntityManager, email: string): Promise<IUser | null> => em.findOne(User, { email });

/** The sign-in link of a token (null when there is none, used or not) and the account it signs in to. */
export async function loadSignInLink(
  em: EntityManager,
  token: string,
): Promise<{ hash: string; link: ISignInLink | null; user: IUser | null }> {
  const hash = sha256Hex(token);
  const link = await em.findOne(SignInLink, { hash });
  return { hash, link, user: link ? await em.findOne(User, { email: link.email }) : null };
}

/** The invitation of a token while it can be accepted: not used, withdrawn or expired. */
export async function loadInvitation(em: EntityManager, token: string): Promise<IInvite | SignInRefusal> {
  const invite = await em.findOne(Invite, { hash: sha256Hex(token) });
  if (!invite) return refusal(404, 'Invitation not found', 'This invitation link is not valid.');
  if (invite.usedAt) return REFUSED.invitationUsed;
  const member = await em.findOne(Membership, { organizationId: invite.organizationId, userId: invite.userId });
  // An invitation of a new account was revoked by removing the member; one of an existing account makes it one.
  if (invite.revokedAt || (!member && !invite.joins))
    return refusal(410, 'Invitation revoked', 'This invitation was withdrawn. Ask an administrator for a new one.');
  if (invite.expiresAt <= new Date())
    return refusal(410, 'Invitation expired', 'This invitation has expired. Ask an administrator for a new one.');
  return invite;
}

/** The title of an organization (it must exist). */
export const loadOrganizationTitle = async (em: EntityManager, id: string): Promise<string> =>
  (await em.findOneOrFail(Organization, { id })).title;

/** An invitation of an existing account waiting for its owner, as the account page lists it. */
export interface PendingInvitation {
  id: string;
  organization: string;
  role: Role | null;
}

/** What the account page shows of its owner: name, organizations, live API tokens, invitations to accept. */
export interface Account {
  name: string;
  email: string;
  organizations: { id: string; title: string; role: string }[];
  /** Newest first. */
  tokens: IApiToken[];
  invitations: PendingInvitation[];
  /** The live sign-in sessions, newest first. */
  sessions: ISession[];
}

/** The titles of organizations, by id. */
async function titlesOf(em: EntityManager, ids: string[]): Promise<Map<string, string>> {
  const orgs = ids.length ? await em.find(Organization, { id: { $in: ids } }) : [];
  return new Map(orgs.map((o) => [o.id, o.title]));
}

/** The signed-in account, as its page shows it. */
export async function loadAccount(em: EntityManager, userId: string): Promise<Account> {
  const user = await em.findOneOrFail(User, { id: userId });
  const memberships = await em.find(Membership, { userId: user.id }, { orderBy: { joinedAt: 'asc' } });
  const titles = await titlesOf(
    em,
    memberships.map((m) => m.organizationId),
  );
  const tokens = await em.find(
    ApiToken,
    { userId: user.id, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  return {
    name: user.displayName,
    email: user.email,
    organizations: memberships.map((m) => ({
      id: m.organizationId,
      title: titles.get(m.organizationId) ?? m.organizationId,
      role: m.role ?? 'guest',
    })),
    tokens,
    invitations: await pendingInvitationsOf(em, user.id),
    sessions: await loadLiveSessions(em, user.id),
  };
}

/** The open invitations of an existing account (unused, not revoked, unexpired) to organizations it is not in. */
async function openInvitesOf(em: EntityManager, userId: string): Promise<IInvite[]> {
  const invites = await em.find(
    Invite,
    { userId, joins: true, usedAt: null, revokedAt: null, expiresAt: { $gt: new Date() } },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const memberOf = new Set((await em.find(Membership, { userId })).map((m) => m.organizationId));
  return invites.filter((i) => !memberOf.has(i.organizationId));
}

async function pendingInvitationsOf(em: EntityManager, userId: string): Promise<PendingInvitation[]> {
  const invites = await openInvitesOf(em, userId);
  const titles = await titlesOf(
    em,
    invites.map((i) => i.organizationId),
  );
  return invites.map((i) => ({
    id: i.id,
    organization: titles.get(i.organizationId) ?? i.organizationId,
    role: i.role ?? null,
  }));
}

/** The open invitation `id` of the signed-in account; refused when it is not one (another's, used, revoked, expired). */
export async function loadOpenInvitation(
  em: EntityManager,
  userId: string,
  id: string,
): Promise<IInvite | SignInRefusal> {
  return (await openInvitesOf(em, userId)).find((i) => i.id === id) ?? REFUSED.invitationNotValid;
}

/** A live API token of the signed-in account. */
export const loadActiveToken = async (
  em: EntityManager,
  userId: string,
  id: string,
): Promise<IApiToken | SignInRefusal> =>
  (await tokenRepository.findActiveOf(em, userId, id)) ??
  refusal(404, 'Token not found', 'This token does not exist or was already revoked.');

/** A live sign-in session of the signed-in account. */
export async function loadOwnSession(em: EntityManager, userId: string, id: string): Promise<ISession | SignInRefusal> {
  const session = await em.findOne(Session, { id, userId });
  return session && isLive(session)
    ? session
    : refusal(404, 'Session not found', 'This session does not exist or has already ended.');
}

/** A single sign-on method of an organization, as its login page links to it. */
export interface SsoMethod {
  kind: 'oidc' | 'saml';
  id: string;
  label: string;
}

/** The single sign-on methods of an organization (`/login?organization=<id>`): its active SAML, then OIDC, providers. */
export async function loadSsoMethods(em: EntityManager, organizationId: string | undefined): Promise<SsoMethod[]> {
  if (!organizationId) return [];
  const order = { orderBy: { createdAt: 'asc', id: 'asc' } } as const;
  const oidc = await em.find(OidcProvider, { organizationId }, order);
  const saml = await em.find(SamlProvider, { organizationId }, order);
  return [
    ...saml.filter((p) => samlStatus(p) === 'active').map((p) => ({ kind: 'saml' as const, id: p.id, label: p.label })),
    ...oidc.map((p) => ({ kind: 'oidc' as const, id: p.id, label: p.label })),
  ];
}

/** The flow an OpenID Connect callback ends (null when there is none) and its provider (null when deleted since). */
export async function loadOidcCallback(
  em: EntityManager,
  prepared: { flowHash: string; providerId: string },
): Promise<{ flow: ISsoFlow | null; provider: SsoProviderView | null }> {
  const flow = await em.findOne(SsoFlow, { hash: prepared.flowHash });
  return { flow, provider: await em.findOne(OidcProvider, { id: prepared.providerId }) };
}

/** A SAML provider, for its metadata (configured or not) or a sign-in through it (active only). */
export async function loadSamlProvider(
  em: EntityManager,
  id: string,
  step: 'metadata' | 'start' | 'acs',
): Promise<ISamlProvider | SignInRefusal> {
  const provider = await em.findOne(SamlProvider, { id });
  if (!provider || (step !== 'metadata' && samlStatus(provider) !== 'active'))
    return refusal(404, 'Sign-in not found', 'This single sign-on does not exist (any more) or is not configured yet.');
  return provider;
}

/** The SAML flow of a RelayState, while it can end: started here for this provider, unused, unexpired. */
export async function loadSamlFlow(
  em: EntityManager,
  provider: ISamlProvider,
  relayState: string,
  now: Date,
): Promise<(ISsoFlow & { requestId: string }) | SignInRefusal> {
  const flow = await em.findOne(SsoFlow, { hash: sha256Hex(relayState), kind: 'saml', providerId: provider.id });
  if (!flow || flow.usedAt || flow.expiresAt <= now || !flow.requestId)
    return refusal(
      410,
      'Sign-in expired',
      'This sign-in is expired, already used or was not started here. Start again.',
    );
  return { ...flow, requestId: flow.requestId };
}

/** An identity provider of an organization, as a sign-in through it needs it. */
export interface SsoProviderView {
  id: string;
  organizationId: string;
  label: string;
  defaultRole?: Role | null | undefined;
  defaultTeamId?: string | null | undefined;
}

/** A link of an identity to an existing account, asked for and waiting for its owner, with the names its pages show. */
export interface SsoLinkAsked {
  link: ISsoLink;
  provider: SsoProviderView;
  organization: string;
  email: string;
}

/**
 * The link request of a token (the confirmation page's): unused, unexpired, its provider and account still there,
 * and the identity not linked to anyone since.
 */
export async function loadSsoLink(em: EntityManager, token: string): Promise<SsoLinkAsked | SignInRefusal> {
  const link = await em.findOne(SsoLink, { hash: sha256Hex(token) });
  if (!link || link.usedAt || link.expiresAt <= new Date())
    return refusal(
      410,
      'Link not valid',
      'This request to link your account is expired or already used. Sign in with the provider again.',
    );
  const provider: SsoProviderView | null =
    link.kind === 'oidc'
      ? await em.findOne(OidcProvider, { id: link.providerId })
      : await em.findOne(SamlProvider, { id: link.providerId });
  const user = await em.findOne(User, { id: link.userId });
  if (!provider || !user)
    return refusal(404, 'Sign-in not found', 'This single sign-on or this account does not exist (any more).');
  if (await em.findOne(SsoIdentity, { providerId: link.providerId, subject: link.subject }))
    return refusal(409, 'Already linked', 'This identity is already linked to an account.');
  const organization =
    (await em.findOne(Organization, { id: provider.organizationId }))?.title ?? provider.organizationId;
  return { link, provider, organization, email: user.email };
}
