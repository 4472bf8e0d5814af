import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authnRequestOf,
  signedSamlResponse,
} from '../../../../services/org-admin/src/modules/saml/saml-idp.testing.ts';
import { axe, hasChromium } from './browser.ts';
import { type Boot, bootstrap, http, type Platform, startPlatform } from './harness.ts';
import { routeSamlIdp, type SamlService, useChromiumAtPublicHost, useTestIdps } from './sso.ts';

/** Single sign-on through the gateway: OpenID Connect against oidc-provider on loopback, SAML against an IdP made here. */
const PUBLIC_URL = 'http://quire.test';
const IDP_ENTITY = 'https://idp.example/entity';
const CLIENT = { clientId: 'quire-e2e', clientSecret: 'e2e-client-secret-0123456789abcdef' };

let p: Platform;
let acme: Boot;
const { keys, redirectUris, oidc: idp } = useTestIdps(CLIENT);
let oidc: { id: string; service: { redirectURL: string } };
let saml: SamlService;

beforeAll(async () => {
  // The OpenID provider is on loopback: the instance allows private fetches (a self-hoster's own IdP would too).
  p = await startPlatform({ env: { QUIRE_PUBLIC_URL: PUBLIC_URL, QUIRE_ALLOW_PRIVATE_FETCH: '1' } });
  acme = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
  const api = http(p, acme.token);
  const created = await api('POST', `/v1/orgs/${acme.organization.id}/oidc`, {
    label: 'Acme ID',
    issuer: idp.issuer,
    ...CLIENT,
    defaultRole: 'edit',
  });
  expect(created.status).toBe(201);
  expect(JSON.stringify(created.json)).not.toContain(CLIENT.clientSecret);
  oidc = created.json;
  redirectUris.push(oidc.service.redirectURL);
  const samlCreated = await api('POST', `/v1/orgs/${acme.organization.id}/saml`, {
    label: 'Acme SAML',
    ssoURL: 'http://idp.example/sso',
    entityID: IDP_ENTITY,
    certificate: keys.cert,
    defaultRole: 'comment',
  });
  expect(samlCreated.status).toBe(201);
  saml = samlCreated.json;
}, 150_000);
afterAll(async () => {
  await p?.stop();
});

describe.skipIf(!hasChromium)('single sign-on in Chromium (no script on our pages)', () => {
  // quire.test is the instance's public host: the browser reaches the platform under that name.
  const browser = useChromiumAtPublicHost(() => p.url);

  it('OpenID Connect: the login page offers it, the provider signs in a new member', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(`${PUBLIC_URL}/login?organization=${acme.organization.id}`);
    expect(await page.getByRole('heading', { name: 'Single sign-on' }).count()).toBe(1);
    idp.signInAs({ sub: 'oidc-olga', email: 'olga@acme.io', emailVerified: true, name: 'Olga' });
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.waitForURL(`${PUBLIC_URL}/account`);
    expect(await page.textContent('main')).toContain('Signed in as Olga <olga@acme.io>.');
    expect(await page.getByRole('listitem').allTextContents()).toEqual(['Acme (edit)']);
    const checked = await browser.newPage();
    await checked.goto(`${PUBLIC_URL}/login?organization=${acme.organization.id}`);
    expect(await axe(checked)).toEqual([]);
  });

  it('SAML: AuthnRequest to the IdP, its signed response posted back, a new member', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    // The identity provider's page: a form posting the signed response to Quire's ACS.
    await routeSamlIdp(page, { idp: IDP_ENTITY, email: 'sam@acme.io', saml, keys });
    await page.goto(`${PUBLIC_URL}/login?organization=${acme.organization.id}`);
    await page.getByRole('link', { name: 'Sign in with Acme SAML' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${PUBLIC_URL}/account`);
    expect(await page.textContent('main')).toContain('Signed in as Sam Lee <sam@acme.io>.');
    expect(await page.getByRole('listitem').allTextContents()).toEqual(['Acme (comment)']);
  });
});

describe('single sign-on through the gateway, without a browser', () => {
  it('serves SP metadata; the ACS takes a full signed response, refuses one without its request', async () => {
    const metadata = await fetch(`${p.url}/saml/${saml.id}/metadata`);
    expect(metadata.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    expect(await metadata.text()).toContain(`entityID="${saml.service.entityID}"`);

    const start = await fetch(`${p.url}/saml/${saml.id}/start`, { redirect: 'manual' });
    expect(start.status).toBe(303);
    const request = authnRequestOf(start.headers.get('location')!);
    const response = (email: string, audience = saml.service.entityID) =>
      signedSamlResponse({
        idp: IDP_ENTITY,
        inResponseTo: request.requestId,
        email,
        acs: saml.service.acsURL,
        audience,
        key: keys.key,
        cert: keys.cert,
      });
    const acs = (fields: Record<string, string>) =>
      fetch(`${p.url}/saml/${saml.id}/acs`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    // No CSRF token of ours on the IdP's POST: refused for what it is (wrong audience), not as a forged form.
    const wrong = await acs({
      SAMLResponse: response('sue@acme.io', 'https://other.example'),
      RelayState: request.relayState,
    });
    expect(wrong.status).toBe(401);
    expect((await acs({ SAMLResponse: response('sue@acme.io') })).status).toBe(410);
    const ok = await acs({ SAMLResponse: response('sue@acme.io'), RelayState: request.relayState });
    expect(ok.status).toBe(303);
    expect(ok.headers.getSetCookie().some((c) => /^quire_session=.*HttpOnly; SameSite=Lax/.test(c))).toBe(true);
    expect((await acs({ SAMLResponse: response('sue@acme.io'), RelayState: request.relayState })).status).toBe(410);
  });

  it('OpenID Connect start redirects to the provider with PKCE; a callback without its browser cookie is refused', async () => {
    const start = await fetch(`${p.url}/oidc/${oidc.id}/start`, { redirect: 'manual' });
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(start.headers.getSetCookie().some((c) => /^quire_sso=.*HttpOnly; SameSite=Lax/.test(c))).toBe(true);
    const callback = await fetch(
      `${p.url}/oidc/${oidc.id}/callback?code=x&state=${authorize.searchParams.get('state')}`,
      { redirect: 'manual' },
    );
    expect(callback.status).toBe(403);
  });
});
