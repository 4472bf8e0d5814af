import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeNext } from './handler.ts';
import { accountPage, esc, loginPage } from './pages.ts';
import { ssoLinkFirstPage, ssoLinkPage } from './sso-link.ts';

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
    });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img>');
    // The pages of a link asked by an identity provider: organization and provider names are the admins' text.
    const names = { organization: '<script>x</script>', provider: '"><img src=x>', email: 'a@b.c' };
    for (const html of [
      ssoLinkPage('csrf-token', { ...names, role: null, token: '"><b>' }),
      ssoLinkFirstPage({ ...names, start: '/oidc/"><i>/start' }),
    ]) {
      expect(html).not.toMatch(/<script>|<img|<b>|<i>/);
      expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    }
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
    const page = loginPage('t', '/account', undefined, [{ label: '"><script>', href: '/oidc/p1/start?next=%2Fa' }]);
    expect(page).toContain('<h2 id="sso">Single sign-on</h2>');
    expect(page).toContain('<a href="/oidc/p1/start?next=%2Fa">Sign in with &quot;&gt;&lt;script&gt;</a>');
    expect(loginPage('t', '/account')).not.toContain('Single sign-on');
  });
});
