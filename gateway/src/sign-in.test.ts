import { describe, expect, it } from 'vitest';
import { useOfflineGateway } from './gateway.testing.ts';
import { instanceHostPattern } from './sign-in.ts';

describe('sign-in routes of the gateway', () => {
  const gw = useOfflineGateway({ QUIRE_PUBLIC_URL: 'https://quire.example.test' });

  it('serves the sign-in on the instance host, the site’s own page on a site hostname', async () => {
    const own = await gw.app.inject({ url: '/login', headers: { host: 'quire.example.test' } });
    expect(own.statusCode).toBeGreaterThanOrEqual(500);
    expect(own.body).toContain('<h1>Sign in unavailable</h1>');
    const site = await gw.app.inject({ url: '/login', headers: { host: 'docs.acme.io' } });
    expect(site.body).not.toContain('Sign in unavailable');
    expect(instanceHostPattern('https://quire.example.test').test('docs.acme.io')).toBe(false);
    expect(instanceHostPattern('https://quire.example.test').test('127.0.0.1:8080')).toBe(true);
  });

  it('takes forms only as application/x-www-form-urlencoded, of bounded size', async () => {
    const headers = { host: 'quire.example.test', 'content-type': 'application/x-www-form-urlencoded' };
    const big = await gw.app.inject({ method: 'POST', url: '/login', headers, payload: `email=${'a'.repeat(20_000)}` });
    expect(big.statusCode).toBe(413);
    const text = await gw.app.inject({
      method: 'POST',
      url: '/login',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(text.statusCode).toBe(415);
  });

  it('lets a SAML response (up to 256 KiB) reach the assertion consumer service, only there', async () => {
    const headers = { host: 'quire.example.test', 'content-type': 'application/x-www-form-urlencoded' };
    const payload = `SAMLResponse=${'A'.repeat(100_000)}&RelayState=r`;
    // Through to org-admin (unreachable here: its error page), not refused by the gateway's body limit.
    const acs = await gw.app.inject({ method: 'POST', url: '/saml/p1/acs', headers, payload });
    expect(acs.statusCode).toBeGreaterThanOrEqual(500);
    expect(acs.body).toContain('Sign in unavailable');
    expect(
      (
        await gw.app.inject({
          method: 'POST',
          url: '/saml/p1/acs',
          headers,
          payload: `SAMLResponse=${'A'.repeat(300_000)}`,
        })
      ).statusCode,
    ).toBe(413);
    expect((await gw.app.inject({ method: 'POST', url: '/login', headers, payload })).statusCode).toBe(413);
    for (const url of ['/oidc/p1/start', '/oidc/p1/callback?code=c&state=s', '/saml/p1/start', '/saml/p1/metadata'])
      expect((await gw.app.inject({ url, headers: { host: 'quire.example.test' } })).body, url).toContain(
        'Sign in unavailable',
      );
  });
});
