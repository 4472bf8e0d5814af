import { sha256Hex, type EntityManager } from '@quire/kit';
import type { Role } from '@quire/contracts';
import { OidcProvider, SsoIdentity, SsoLink, type ISsoLink } from '../oidc/oidc-provider.entity.ts';
import { Organization } from '../organizations/organization.entity.ts';
import { SamlProvider } from '../saml/saml-provider.entity.ts';
import { User } from '../users/user.entity.ts';
import { esc, form, hidden, layout, paragraph } from './pages.ts';

/** An identity provider of an organization, as a sign-in through it needs it. */
export interface SsoProviderView {
  id: string;
  organizationId: string;
  label: string;
  defaultRole?: Role | null | undefined;
  defaultTeamId?: string | null | undefined;
}

/** The provider of a link request (OpenID Connect or SAML), null when it was deleted since. */
export async function loadSsoProvider(
  em: EntityManager,
  kind: 'oidc' | 'saml',
  id: string,
): Promise<SsoProviderView | null> {
  return kind === 'oidc' ? em.findOne(OidcProvider, { id }) : em.findOne(SamlProvider, { id });
}

export type SsoLinkCheck =
  | { ok: true; link: ISsoLink; provider: SsoProviderView; organization: string; email: string }
  | { ok: false; status: number; title: string; text: string };

/**
 * The link request of a token (the confirmation page's): unused, unexpired, its provider and account still there,
 * and the identity not linked to anyone since; with the names the pages show.
 */
export async function loadSsoLink(em: EntityManager, token: string): Promise<SsoLinkCheck> {
  const link = await em.findOne(SsoLink, { hash: sha256Hex(token) });
  if (!link || link.usedAt || link.expiresAt <= new Date())
    return {
      ok: false,
      status: 410,
      title: 'Link not valid',
      text: 'This request to link your account is expired or already used. Sign in with the provider again.',
    };
  const provider = await loadSsoProvider(em, link.kind, link.providerId);
  const user = await em.findOne(User, { id: link.userId });
  if (!provider || !user)
    return {
      ok: false,
      status: 404,
      title: 'Sign-in not found',
      text: 'This single sign-on or this account does not exist (any more).',
    };
  if (await em.findOne(SsoIdentity, { providerId: link.providerId, subject: link.subject }))
    return { ok: false, status: 409, title: 'Already linked', text: 'This identity is already linked to an account.' };
  const organization =
    (await em.findOne(Organization, { id: provider.organizationId }))?.title ?? provider.organizationId;
  return { ok: true, link, provider, organization, email: user.email };
}

export interface SsoLinkView {
  organization: string;
  provider: string;
  email: string;
  role: Role | null;
  token: string;
}

/**
 * The confirmation page: names the organization and its provider, says what linking means, and links only on a
 * click of its button (a POST with the session's CSRF token; the page cannot be framed).
 */
export function ssoLinkPage(csrf: string, v: SsoLinkView): string {
  return layout(
    'Link your account?',
    paragraph(
      `The organization “${v.organization}” signs you in with its identity provider “${v.provider}”, which says ` +
        `it knows you as ${v.email}. Your Quire account ${v.email} already exists.`,
    ) +
      paragraph(
        `If you link them, whoever can sign in to “${v.provider}” as ${v.email} can sign in to your whole Quire ` +
          `account, in every organization you belong to, and you join “${v.organization}” ` +
          `(role ${v.role ?? 'guest'}) if you are not a member yet. Link only if you trust “${v.organization}”.`,
      ) +
      form('/sso/link', csrf, hidden('token', v.token), `Link my account to ${v.provider}`) +
      `<p><a href="/account">Do not link: back to my account</a></p>`,
  );
}

/** The page of an identity asserting the e-mail of an existing account whose owner is not the one signed in. */
export function ssoLinkFirstPage(v: { organization: string; provider: string; email: string; start: string }): string {
  const retry = `/login?next=${encodeURIComponent(v.start)}`;
  return layout(
    'Link your account first',
    paragraph(
      `An account with ${v.email} already exists. “${v.provider}” of the organization “${v.organization}” cannot ` +
        'sign in to it by itself.',
    ) +
      paragraph(
        `If it is your account: sign in to it with an e-mail link first, then sign in with ${v.provider} again ` +
          'and confirm the link.',
      ) +
      `<p><a href="${esc(retry)}">Sign in with an e-mail link</a></p>`,
  );
}
