import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './browser.ts';
import { type Boot, bootstrap, http, type Platform, startPlatform } from './harness.ts';
import { startMailbox } from './mailbox.ts';
import { routeSamlIdp, type SamlService, useChromiumAtPublicHost, useTestIdps } from './sso.ts';

/**
 * The account takeover of issue 36, in Chromium through the gateway: organization Evil's admin configures identity
 * providers that assert the e-mail of Victim's admin; she, signed in, is sent to their start URLs. Each chain ends on
 * a page asking her (nothing linked, no new session); only her click links; the attacker's own browser gets 409.
 */
const PUBLIC_URL = 'http://quire.test';
const IDP_ENTITY = 'https://idp.example/evil';
const CLIENT = { clientId: 'quire-evil', clientSecret: 'evil-client-secret-0123456789abcdef' };
const VICTIM = 'vera@victim.io';

let p: Platform;
let evil: Boot;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
const { keys, redirectUris, oidc: idp } = useTestIdps(CLIENT);
let oidc: { id: string; service: { redirectURL: string } };
let saml: SamlService;

/** A /v1 call of Evil's admin: the parsed answer. */
const api = async (method: string, path: string, body: unknown) =>
  (await http(p, evil.token)(method, `/v1${path}`, body)).json;

const linked = async () =>
  Number((await p.sql<{ n: string }>('select count(*) as n from org_admin.sso_identity'))[0]!.n);
const victimInEvil = async () =>
  Number(
    (
      await p.sql<{ n: string }>(
        `select count(*) as n from org_admin.membership m join org_admin."user" u on u.id = m.user_id
         where u.email = $1 and m.organization_id = $2`,
        [VICTIM, evil.organization.id],
      )
    )[0]!.n,
  );

beforeAll(async () => {
  mailbox = await startMailbox(PUBLIC_URL);
  p = await startPlatform({
    env: { QUIRE_PUBLIC_URL: PUBLIC_URL, QUIRE_SMTP_URL: mailbox.url, QUIRE_ALLOW_PRIVATE_FETCH: '1' },
  });
  await bootstrap(p, 'Victim', VICTIM, 'Vera');
  evil = await bootstrap(p, 'Evil', 'mallory@evil.io', 'Mallory');
  oidc = await api('POST', `/orgs/${evil.organization.id}/oidc`, { label: 'Evil ID', issuer: idp.issuer, ...CLIENT });
  redirectUris.push(oidc.service.redirectURL);
  saml = await api('POST', `/orgs/${evil.organization.id}/saml`, {
    label: 'Evil SAML',
    ssoURL: 'http://idp.example/sso',
    entityID: IDP_ENTITY,
    certificate: keys.cert,
  });
}, 150_000);
afterAll(async () => {
  await p?.stop();
  await mailbox?.close();
});

describe.skipIf(!hasChromium)('no account takeover through another organization’s sign-in (Chromium)', () => {
  const browser = useChromiumAtPublicHost(() => p.url);

  it('a signed-in victim sent to the providers lands on a question; only her click links', {
    timeout: 90_000,
  }, async () => {
    const victim = await browser.newPage({ javaScriptEnabled: false });
    await victim.goto(`${PUBLIC_URL}/login`);
    await victim.getByLabel('E-mail address').fill(VICTIM);
    await victim.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await victim.goto(await mailbox.linkFor(VICTIM, '/login/verify', PUBLIC_URL));
    await victim.getByRole('button', { name: 'Sign in' }).click();
    await victim.waitForURL(`${PUBLIC_URL}/account`);

    // OpenID Connect: every step a top-level GET with her session.
    idp.signInAs({ sub: 'evil-sub', email: VICTIM, emailVerified: true });
    await victim.goto(`${PUBLIC_URL}/oidc/${oidc.id}/start`);
    await victim.waitForURL(/\/sso\/link\?token=/);
    expect(await victim.getByRole('heading', { name: 'Link your account?' }).count()).toBe(1);
    expect(await victim.textContent('main')).toContain(
      'The organization “Evil” signs you in with its identity provider “Evil ID”',
    );
    expect(await linked()).toBe(0);
    expect(await victimInEvil()).toBe(0);

    // The attacker's own browser, through the same provider as her: told to sign in to that account first.
    const attacker = await browser.newPage({ javaScriptEnabled: false });
    idp.signInAs({ sub: 'evil-sub', email: VICTIM, emailVerified: true });
    const refused = await attacker.goto(`${PUBLIC_URL}/oidc/${oidc.id}/start`);
    await attacker.waitForURL(/\/sso\/link\?token=/);
    expect((await attacker.reload())!.status()).toBe(409);
    expect(await attacker.textContent('main')).toContain('Link your account first');
    expect(refused).not.toBeNull();
    await attacker.goto(`${PUBLIC_URL}/account`);
    await attacker.waitForURL(/\/login/);
    expect(await linked()).toBe(0);

    // SAML: the IdP's cross-site POST carries no session; the same-site page after it does, and asks her.
    await routeSamlIdp(victim, { idp: IDP_ENTITY, email: VICTIM, saml, keys });
    // From the attacker's page, a link to the provider's start URL (Playwright routes the redirects of a click).
    await victim.route('http://attacker.example/', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><title>Cats</title><a href="${PUBLIC_URL}/saml/${saml.id}/start">Cats</a></html>`,
      }),
    );
    await victim.goto('http://attacker.example/');
    await victim.getByRole('link', { name: 'Cats' }).click();
    await victim.getByRole('button', { name: 'Continue' }).click();
    await victim.waitForURL(/\/sso\/link\?token=/);
    expect(await victim.textContent('main')).toContain('its identity provider “Evil SAML”');
    expect(await linked()).toBe(0);
    expect(await victimInEvil()).toBe(0);

    // Her click (her choice) is what links, and makes her a member of Evil.
    await victim.getByRole('button', { name: 'Link my account to Evil SAML' }).click();
    await victim.waitForURL(`${PUBLIC_URL}/account`);
    expect(await linked()).toBe(1);
    expect(await victimInEvil()).toBe(1);
  });
});
