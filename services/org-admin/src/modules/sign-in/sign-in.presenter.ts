/** The sign-in pages: server-rendered HTML in the instance's one layout (the published site's look), no script. */
import type { Role } from '@quire/contracts';
import { html, instancePage, type Html, type Interpolation } from '@quire/document/html';
import type { PublicUrls } from '@quire/kit';
import type { ISamlProvider } from '../saml/saml-provider.entity.ts';
import { samlMetadata } from '../saml/saml-sign-in.ts';
import type { ISession } from '../sessions/session.entity.ts';
import { browserName } from '../sessions/session.presenter.ts';
import type { IApiToken } from '../tokens/api-token.entity.ts';
import type { Account, SsoLinkAsked, SsoMethod } from './sign-in.loader.ts';
import type { SignInOutput, SignInRefusal, SignInRequest } from './sign-in-request.ts';

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; style-src 'self'; font-src 'self'; img-src 'self'; form-action 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'",
};

/** A page of the sign-in: its status, with the cookies the request set. */
export const presentPage = (r: SignInRequest, status: number, page: Html): SignInOutput => ({
  status,
  headers: HEADERS,
  cookies: r.cookies,
  body: page.value,
});

/** 303 to `location` (a path of this site or an identity provider's URL), with the cookies the request set. */
export const presentRedirect = (r: SignInRequest, location: string): SignInOutput => ({
  status: 303,
  headers: { location, 'cache-control': 'no-store' },
  cookies: r.cookies,
  body: '',
});

/** A refusal's page: its title, its text and the way back to sign in. */
export const presentRefusal = (r: SignInRequest, refused: SignInRefusal): SignInOutput =>
  presentMessage(r, refused.status, refused.title, refused.text);

export const presentMessage = (r: SignInRequest, status: number, title: string, text: string): SignInOutput =>
  presentPage(r, status, layout(title, html`${paragraph(text)}<p><a href="/login">Go to sign in</a></p>`));

/** Quire's SP metadata for a SAML provider (XML, not a page). */
export const presentSamlMetadata = (urls: PublicUrls, provider: ISamlProvider): SignInOutput => ({
  status: 200,
  headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-store' },
  cookies: [],
  body: samlMetadata(urls, provider),
});

/** A complete page of the sign-in: the instance's one layout. */
export const layout = (title: string, body: Interpolation): Html => instancePage({ title, body, kind: 'sign-in' });

export const hidden = (name: string, value: string): Html =>
  html`<input type="hidden" name="${name}" value="${value}">`;

/** A POST form with its CSRF token (the button's text may hold a `sr-only` part naming what it acts on). */
export const form = (action: string, csrf: string, fields: Interpolation, button: Interpolation): Html =>
  html`<form method="post" action="${action}">${hidden('_csrf', csrf)}${fields}<p><button type="submit">${button}</button></p></form>`;

export const paragraph = (text: string): Html => html`<p>${text}</p>`;

/** The links of an organization's single sign-on methods, each coming back to `next`. */
export function ssoLinksOf(methods: SsoMethod[], next: string): { label: string; href: string }[] {
  const q = next === '/account' ? '' : `?next=${encodeURIComponent(next)}`;
  return methods.map((m) => ({ label: m.label, href: `/${m.kind}/${m.id}/start${q}` }));
}

export function loginPage(
  csrf: string,
  next: string,
  notice?: string,
  sso: { label: string; href: string }[] = [],
): Html {
  const single = sso.length
    ? html`<section aria-labelledby="sso"><h2 id="sso">Single sign-on</h2><ul>${sso.map(
        (m) => html`<li><a href="${m.href}">Sign in with ${m.label}</a></li>`,
      )}</ul></section><h2>E-mail link</h2>`
    : '';
  const email = html`<p><label for="email">E-mail address</label> <input id="email" name="email" type="email" autocomplete="email" required maxlength="254"></p>`;
  return layout(
    'Sign in',
    html`${notice ? html`<p role="alert">${notice}</p>` : ''}${single}${paragraph(
      'Enter your e-mail address: we will send you a link to sign in, valid for 15 minutes.',
    )}${form('/login', csrf, html`${hidden('next', next)}${email}`, 'Send me a sign-in link')}`,
  );
}

/** The confirmation of a sign-in link (a GET only shows it: mail scanners that open links sign nobody in). */
export const verifyPage = (csrf: string, token: string): Html =>
  layout(
    'Sign in',
    html`${paragraph('Confirm to sign in to Quire.')}${form('/login/verify', csrf, hidden('token', token), 'Sign in')}`,
  );

export const invitationPage = (csrf: string, token: string, organization: string, role: Role | null): Html =>
  layout(
    'Invitation',
    html`${paragraph(`You are invited to join ${organization} with the role ${role ?? 'guest'}.`)}${form(
      '/invites/accept',
      csrf,
      hidden('token', token),
      'Accept and sign in',
    )}`,
  );

export interface AccountView {
  name: string;
  email: string;
  organizations: { id: string; title: string; role: string }[];
  tokens: { id: string; label: string; createdAt: Date; lastUsedAt: Date | null }[];
  /** A token just created: shown once. */
  created?: { label: string; token: string };
  /** Invitations of this (existing) account it joins only by accepting. */
  invitations?: { id: string; organization: string; role: string | null }[];
  /** The live sign-in sessions, newest first; `current` is this browser's. */
  sessions: SessionView[];
}

export interface SessionView {
  id: string;
  browser: string;
  address: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
}

/**
 * The account page's view of what `loadAccount` found, seen from the browser of session `current`, with the token just
 * created (first in the list) if any.
 */
export function accountViewOf(
  account: Account,
  current: ISession,
  created?: { token: string; record: IApiToken },
): AccountView {
  const tokens = created ? [created.record, ...account.tokens] : account.tokens;
  return {
    ...account,
    tokens: tokens.map((t) => ({ id: t.id, label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt ?? null })),
    sessions: account.sessions.map((s) => ({
      id: s.id,
      browser: browserName(s.userAgent),
      address: s.address ?? null,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      current: s.id === current.id,
    })),
    ...(created ? { created: { label: created.record.label, token: created.token } } : {}),
  };
}

/** The invitations waiting for the signed-in account, each with its Accept button (a POST with CSRF). */
const invitationsSection = (csrf: string, list: AccountView['invitations'] = []) =>
  list.length
    ? html`<section aria-labelledby="invitations"><h2 id="invitations">Invitations</h2><ul>${list.map(
        (i) =>
          html`<li>${i.organization} (${i.role ?? 'guest'})${form(
            '/account/invites/accept',
            csrf,
            hidden('inviteId', i.id),
            `Join ${i.organization}`,
          )}</li>`,
      )}</ul></section>`
    : '';

const when = (d: Date | null) => (d ? `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC` : 'never');

function tokensSection(csrf: string, v: AccountView): Html {
  if (!v.tokens.length) return paragraph('You have no API tokens.');
  const rows = v.tokens.map(
    (t) =>
      html`<tr><td>${t.label}</td><td>${when(t.createdAt)}</td><td>${when(t.lastUsedAt)}</td><td>${form(
        '/account/tokens/revoke',
        csrf,
        hidden('tokenId', t.id),
        `Revoke ${t.label}`,
      )}</td></tr>`,
  );
  return html`<table><caption>Your API tokens</caption><thead><tr><th scope="col">Label</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** A session's row: its browser (and address), when it began, its last request, and its Sign out (this browser's: /logout). */
function sessionRow(csrf: string, s: SessionView): Html {
  const what = html`${s.browser}${s.address ? html`<br><small>${s.address}</small>` : ''}`;
  const action = s.current
    ? form('/logout', csrf, '', html`Sign out<span class="sr-only"> of this browser</span>`)
    : form(
        '/account/sessions/revoke',
        csrf,
        hidden('sessionId', s.id),
        html`Sign out<span class="sr-only"> ${s.browser}, signed in ${when(s.createdAt)}</span>`,
      );
  const browser = s.current ? html`<strong>This browser</strong>: ${what}` : what;
  return html`<tr><td>${browser}</td><td>${when(s.createdAt)}</td><td>${when(s.lastSeenAt)}</td><td>${action}</td></tr>`;
}

/** The account's live sign-in sessions, each with its Sign out, and Sign out everywhere else when there are others. */
function sessionsSection(csrf: string, sessions: SessionView[]): Html {
  const others = sessions.some((s) => !s.current)
    ? form('/account/sessions/revoke-others', csrf, '', 'Sign out everywhere else')
    : paragraph('You are signed in in this browser only.');
  return html`<section aria-labelledby="sessions"><h2 id="sessions">Signed-in sessions</h2><div class="table-wrap"><table><caption>Browsers signed in to your account</caption><thead><tr><th scope="col">Browser</th><th scope="col">Signed in</th><th scope="col">Last active</th><th scope="col">Action</th></tr></thead><tbody>${sessions.map(
    (s) => sessionRow(csrf, s),
  )}</tbody></table></div>${others}</section>`;
}

export function accountPage(csrf: string, v: AccountView): Html {
  const orgs = v.organizations.length
    ? html`<ul>${v.organizations.map((o) => html`<li><a href="/o/${encodeURIComponent(o.id)}">${o.title}</a> (${o.role})</li>`)}</ul><p><a href="/">Open the app</a></p>`
    : paragraph('You are not a member of any organization yet.');
  const created = v.created
    ? html`<section aria-labelledby="new-token"><h2 id="new-token">New token “${v.created.label}”</h2>${paragraph(
        'Copy it now: it will not be shown again.',
      )}<p><code id="token-value">${v.created.token}</code></p></section>`
    : '';
  const label = html`<p><label for="label">Token label</label> <input id="label" name="label" required maxlength="100" autocomplete="off"></p>`;
  return layout(
    'Your account',
    html`${paragraph(`Signed in as ${v.name} <${v.email}>.`)}<p>Your tokens and sessions are in the app too: <a href="/account/developer">API tokens</a>, <a href="/account/sessions">signed-in sessions</a>.</p><h2>Organizations</h2>${orgs}${invitationsSection(
      csrf,
      v.invitations,
    )}${created}<h2>API tokens</h2>${tokensSection(csrf, v)}${form('/account/tokens', csrf, label, 'Create a token')}${sessionsSection(
      csrf,
      v.sessions,
    )}${form('/logout', csrf, '', 'Sign out')}`,
  );
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
export function ssoLinkPage(csrf: string, v: SsoLinkView): Html {
  return layout(
    'Link your account?',
    html`${paragraph(
      `The organization “${v.organization}” signs you in with its identity provider “${v.provider}”, which says ` +
        `it knows you as ${v.email}. Your Quire account ${v.email} already exists.`,
    )}${paragraph(
      `If you link them, whoever can sign in to “${v.provider}” as ${v.email} can sign in to your whole Quire ` +
        `account, in every organization you belong to, and you join “${v.organization}” ` +
        `(role ${v.role ?? 'guest'}) if you are not a member yet. Link only if you trust “${v.organization}”.`,
    )}${form('/sso/link', csrf, hidden('token', v.token), `Link my account to ${v.provider}`)}<p><a href="/account">Do not link: back to my account</a></p>`,
  );
}

/**
 * The page of a link asked for: to the signed-in owner of the account, the confirmation (linking takes a click on
 * it); to anyone else, 409: sign in to that account first.
 */
export function presentSsoLink(r: SignInRequest, asked: SsoLinkAsked, token: string): SignInOutput {
  const { link, provider } = asked;
  const names = { organization: asked.organization, provider: provider.label, email: asked.email };
  return r.session?.userId === link.userId
    ? presentPage(r, 200, ssoLinkPage(r.session.csrf, { ...names, role: provider.defaultRole ?? null, token }))
    : presentPage(r, 409, ssoLinkFirstPage({ ...names, start: `/${link.kind}/${provider.id}/start` }));
}

/** The page of an identity asserting the e-mail of an existing account whose owner is not the one signed in. */
export function ssoLinkFirstPage(v: { organization: string; provider: string; email: string; start: string }): Html {
  const retry = `/login?next=${encodeURIComponent(v.start)}`;
  return layout(
    'Link your account first',
    html`${paragraph(
      `An account with ${v.email} already exists. “${v.provider}” of the organization “${v.organization}” cannot ` +
        'sign in to it by itself.',
    )}${paragraph(
      `If it is your account: sign in to it with an e-mail link first, then sign in with ${v.provider} again ` +
        'and confirm the link.',
    )}<p><a href="${retry}">Sign in with an e-mail link</a></p>`,
  );
}
