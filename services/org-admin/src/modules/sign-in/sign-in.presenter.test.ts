import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { esc } from '@quire/document/html';
import { accountPage, loginPage, ssoLinkFirstPage, ssoLinkPage } from './sign-in.presenter.ts';
import { safeNext } from './sign-in-request.ts';

describe('sign-in pages', () => {
  it('escapes every piece of user content', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = esc(s);
        expect(out).not.toMatch(/[<>"']/);
        expect(
          out.replace(
            /&(lt|gt|quot|#39|amp);/g,
            (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!,
          ),
        ).toBe(s);
      }),
    );
    const page = accountPage('t', {
      name: '<script>',
      email: 'a@b.c',
      organizations: [{ id: 'o', title: '"><img>', role: 'read' }],
      tokens: [],
      sessions: [],
    }).value;
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img>');
    // Each organization opens in the app, and so does the app itself (a member who just accepted an invitation).
    expect(page).toContain('<a href="/o/o">&quot;&gt;&lt;img&gt;</a> (read)');
    expect(page).toContain('<a href="/">Open the app</a>');
    // The app's screen of the same tokens and sessions (app/src/screens/Account.tsx).
    expect(page).toContain(
      '<a href="/account/developer">API tokens</a>, <a href="/account/sessions">signed-in sessions</a>',
    );
    // The pages of a link asked by an identity provider: organization and provider names are the admins' text.
    const names = { organization: '<script>x</script>', provider: '"><img src=x>', email: 'a@b.c' };
    for (const { value: html } of [
      ssoLinkPage('csrf-token', { ...names, role: null, token: '"><b>' }),
      ssoLinkFirstPage({ ...names, start: '/oidc/"><i>/start' }),
    ]) {
      expect(html).not.toMatch(/<script>|<img|<b>|<i>/);
      expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    }
  });

  it('writes every page in the instance’s one layout, each form with its CSRF token', () => {
    const login = loginPage('csrf-t', '/account').value;
    expect(login).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(login).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(login).toContain('<title>Sign in · Quire</title>');
    expect(login).toContain('<link rel="stylesheet" href="/_quire/site/site-v1.css">');
    expect(login).toContain('<main id="content" class="sign-in"><h1>Sign in</h1>');
    expect(login).toContain('<form method="post" action="/login"><input type="hidden" name="_csrf" value="csrf-t">');
    const account = accountPage('csrf-a', {
      name: 'Ann',
      email: 'ann@acme.io',
      organizations: [],
      tokens: [{ id: 't1', label: 'CI', createdAt: new Date('2026-01-02T03:04:05Z'), lastUsedAt: null }],
      created: { label: 'CI', token: 'quire_secret' },
      sessions: [],
    }).value;
    expect(account).toContain('<main id="content" class="sign-in"><h1>Your account</h1>');
    expect(account).toContain('<p>Signed in as Ann &lt;ann@acme.io&gt;.</p>');
    expect(account).toContain('<td>CI</td><td>2026-01-02 03:04 UTC</td><td>never</td>');
    expect(account).toContain('<code id="token-value">quire_secret</code>');
    expect(account).toContain('<button type="submit">Sign out</button>');
  });

  it("lists the signed-in sessions, this browser's marked, each with its Sign out form", () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const session = { createdAt: at, lastSeenAt: at, address: null, current: false };
    const sessions = [
      { ...session, id: 'mine', browser: 'Firefox on Linux', address: '10.0.0.1', current: true },
      { ...session, id: 's2', browser: '"><script>' },
    ];
    const page = accountPage('csrf-a', { name: 'Ann', email: 'a@b.c', organizations: [], tokens: [], sessions }).value;
    expect(page).toContain('<h2 id="sessions">Signed-in sessions</h2>');
    expect(page).toContain('<td><strong>This browser</strong>: Firefox on Linux<br><small>10.0.0.1</small></td>');
    expect(page).toContain(
      'action="/logout"><input type="hidden" name="_csrf" value="csrf-a"><p><button type="submit">Sign out<span class="sr-only"> of this browser</span></button>',
    );
    expect(page).toContain(
      '<input type="hidden" name="sessionId" value="s2"><p><button type="submit">Sign out<span class="sr-only"> &quot;&gt;&lt;script&gt;, signed in 2026-01-02 03:04 UTC</span></button>',
    );
    expect(page).not.toContain('value="mine"');
    expect(page).toContain(
      '<form method="post" action="/account/sessions/revoke-others"><input type="hidden" name="_csrf" value="csrf-a"><p><button type="submit">Sign out everywhere else</button>',
    );
    const alone = accountPage('c', {
      name: 'A',
      email: 'a@b.c',
      organizations: [],
      tokens: [],
      sessions: sessions.slice(0, 1),
    });
    expect(alone.value).not.toContain('Sign out everywhere else');
    expect(alone.value).toContain('You are signed in in this browser only.');
  });

  it('keeps next= on this site', () => {
    expect(safeNext('/account?x=1#y')).toBe('/account?x=1#y');
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'evil',
      '/\t/evil.example',
      '/.//evil.example',
      '/a/..//evil.example',
      undefined,
      '',
    ])
      expect(safeNext(bad)).toBe('/account');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `/${s}`),
        ),
        (s) => {
          const next = safeNext(s);
          expect(new URL(next, 'http://quire.test').origin).toBe('http://quire.test');
          expect(next).toMatch(/^\/(?![/\\])/);
        },
      ),
    );
  });

  it('lists single sign-on methods as links, escaped', () => {
    const page = loginPage('t', '/account', undefined, [
      { label: '"><script>', href: '/oidc/p1/start?next=%2Fa' },
    ]).value;
    expect(page).toContain('<h2 id="sso">Single sign-on</h2>');
    expect(page).toContain('<a href="/oidc/p1/start?next=%2Fa">Sign in with &quot;&gt;&lt;script&gt;</a>');
    expect(loginPage('t', '/account').value).not.toContain('Single sign-on');
  });
});
