/** The sign-in pages: server-rendered HTML in the published site's look (its stylesheet), no script, no CDN. */

import { esc } from '@quire/document/html';

/** Text made safe for HTML: the document package's one escape (the published site's). */
export { esc };

/** A complete page: `body` is trusted HTML built with `esc` around every piece of user content. */
export function layout(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(title)} · Quire</title><link rel="stylesheet" href="/_quire/site/site-v1.css"></head>` +
    `<body><main id="content" class="sign-in"><h1>${esc(title)}</h1>${body}</main></body></html>`
  );
}

export const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

/** A POST form with its CSRF token; `fields` and `button` are HTML. */
export const form = (action: string, csrf: string, fields: string, button: string) =>
  `<form method="post" action="${esc(action)}">${hidden('_csrf', csrf)}${fields}` +
  `<p><button type="submit">${esc(button)}</button></p></form>`;

export const paragraph = (text: string) => `<p>${esc(text)}</p>`;

export function loginPage(
  csrf: string,
  next: string,
  notice?: string,
  sso: { label: string; href: string }[] = [],
): string {
  const single = sso.length
    ? '<section aria-labelledby="sso"><h2 id="sso">Single sign-on</h2><ul>' +
      sso.map((m) => `<li><a href="${esc(m.href)}">Sign in with ${esc(m.label)}</a></li>`).join('') +
      '</ul></section><h2>E-mail link</h2>'
    : '';
  return layout(
    'Sign in',
    (notice ? `<p role="alert">${esc(notice)}</p>` : '') +
      single +
      paragraph('Enter your e-mail address: we will send you a link to sign in, valid for 15 minutes.') +
      form(
        '/login',
        csrf,
        hidden('next', next) +
          '<p><label for="email">E-mail address</label> ' +
          '<input id="email" name="email" type="email" autocomplete="email" required maxlength="254"></p>',
        'Send me a sign-in link',
      ),
  );
}

export interface AccountView {
  name: string;
  email: string;
  organizations: { id: string; title: string; role: string }[];
  tokens: { id: string; label: string; createdAt: Date; lastUsedAt: Date | null }[];
  /** A token just created: shown once. */
  created?: { label: string; token: string };
  /** Invitations of this (existing) account it joins only by accepting. */
  invitations?: { id: string; organization: string; role: string | null }[];
}

/** The invitations waiting for the signed-in account, each with its Accept button (a POST with CSRF). */
const invitationsSection = (csrf: string, list: AccountView['invitations'] = []) =>
  list.length
    ? '<section aria-labelledby="invitations"><h2 id="invitations">Invitations</h2><ul>' +
      list
        .map(
          (i) =>
            `<li>${esc(i.organization)} (${esc(i.role ?? 'guest')})` +
            form('/account/invites/accept', csrf, hidden('inviteId', i.id), `Join ${i.organization}`) +
            '</li>',
        )
        .join('') +
      '</ul></section>'
    : '';

const when = (d: Date | null) => (d ? esc(d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC') : 'never');

export function accountPage(csrf: string, v: AccountView): string {
  const orgs = v.organizations.length
    ? `<ul>${v.organizations.map((o) => `<li>${esc(o.title)} (${esc(o.role)})</li>`).join('')}</ul>`
    : paragraph('You are not a member of any organization yet.');
  const created = v.created
    ? `<section aria-labelledby="new-token"><h2 id="new-token">New token “${esc(v.created.label)}”</h2>` +
      paragraph('Copy it now: it will not be shown again.') +
      `<p><code id="token-value">${esc(v.created.token)}</code></p></section>`
    : '';
  const rows = v.tokens
    .map(
      (t) =>
        `<tr><td>${esc(t.label)}</td><td>${when(t.createdAt)}</td><td>${when(t.lastUsedAt)}</td><td>` +
        form('/account/tokens/revoke', csrf, hidden('tokenId', t.id), `Revoke ${t.label}`) +
        '</td></tr>',
    )
    .join('');
  const tokens = v.tokens.length
    ? '<table><caption>Your API tokens</caption><thead><tr><th scope="col">Label</th><th scope="col">Created</th>' +
      `<th scope="col">Last used</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table>`
    : paragraph('You have no API tokens.');
  return layout(
    'Your account',
    paragraph(`Signed in as ${v.name} <${v.email}>.`) +
      `<h2>Organizations</h2>${orgs}${invitationsSection(csrf, v.invitations)}${created}` +
      `<h2>API tokens</h2>${tokens}` +
      form(
        '/account/tokens',
        csrf,
        '<p><label for="label">Token label</label> ' +
          '<input id="label" name="label" required maxlength="100" autocomplete="off"></p>',
        'Create a token',
      ) +
      form('/logout', csrf, '', 'Sign out'),
  );
}
