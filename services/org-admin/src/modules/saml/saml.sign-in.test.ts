import { beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';
import { CookieJar, expectSsoSignedIn, signInRequest } from '../oidc/oidc-provider.testing.ts';
import { sessionStarter } from '../../commands/session-starter.ts';
import { SESSION_COOKIE } from '../sessions/sessions.ts';
import { SsoIdentity } from '../oidc/oidc-provider.entity.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { authnRequestOf, makeIdpKeys, signedSamlResponse, type TestIdpKeys } from './saml-idp.testing.ts';
import { contentWithoutSpaces } from '../teams/team-spaces.testing.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'samlsignin' });
const IDP = 'https://idp.example/entity';

let keys: TestIdpKeys;
beforeAll(() => {
  keys = makeIdpKeys();
  contentWithoutSpaces(t.svc.deps.peers);
});

/** One request of the browser to Quire's sign-in pages (what the gateway sends to org-admin). */
const quire = (jar: CookieJar, method: 'GET' | 'POST', url: string, form?: Record<string, string>) =>
  signInRequest(t, '127.0.0.7', jar, method, url, form);

interface Assertion {
  inResponseTo: string;
  email: string;
  audience?: string;
  recipient?: string;
  validFor?: number;
  key?: string;
  tamper?: (xml: string) => string;
}

function samlResponse(a: Assertion, acs: string, audience: string): string {
  return signedSamlResponse({
    idp: IDP,
    acs,
    ...a,
    audience: a.audience ?? audience,
    key: a.key ?? keys.key,
    cert: keys.cert,
  });
}

async function configured() {
  const seeded = await seedOrganization(t, { eve: 'read' });
  const team = await t.call(
    ops.createOrganizationTeam,
    { organizationId: seeded.organizationId, title: 'SAML people' },
    seeded.admin.actor,
  );
  const provider = await t.call(
    ops.createOrganizationSAMLProvider,
    {
      organizationId: seeded.organizationId,
      label: 'Acme SAML',
      ssoURL: 'https://idp.example/sso',
      entityID: IDP,
      certificate: keys.cert,
      defaultRole: 'comment',
      defaultTeam: team.id,
    },
    seeded.admin.actor,
  );
  return { ...seeded, provider };
}

/** Starts a sign-in: the AuthnRequest's id and the RelayState, read from the redirect to the identity provider. */
async function start(providerId: string, next = '') {
  const res = await quire(new CookieJar(), 'GET', `/saml/${providerId}/start${next}`);
  expect(res.status).toBe(303);
  const request = authnRequestOf(res.headers.location!);
  expect(request.endpoint).toBe('https://idp.example/sso');
  return request;
}

describe('signing in with SAML (an identity provider made in the test)', () => {
  it('serves SP metadata, sends an AuthnRequest and signs in a new member from a signed assertion', async () => {
    const { organizationId, provider } = await configured();
    const metadata = await quire(new CookieJar(), 'GET', `/saml/${provider.id}/metadata`);
    expect(metadata.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(metadata.body).toContain(`entityID="${provider.service.entityID}"`);
    expect(metadata.body).toContain(`Location="${provider.service.acsURL}"`);
    const login = await quire(new CookieJar(), 'GET', `/login?organization=${organizationId}`);
    expect(login.body).toContain(`<a href="/saml/${provider.id}/start">Sign in with Acme SAML</a>`);

    const flow = await start(provider.id, '?next=%2Faccount%3Fsaml%3D1');
    expect(flow.request).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    const email = `sam-${Date.now()}@example.org`;
    const good = samlResponse(
      { inResponseTo: flow.requestId, email },
      provider.service.acsURL,
      provider.service.entityID,
    );
    const post = (SAMLResponse: string, RelayState = flow.relayState) =>
      quire(new CookieJar(), 'POST', `/saml/${provider.id}/acs`, { SAMLResponse, RelayState });

    // Each refused, none using up the sign-in.
    const refusals: [string, string][] = [
      [
        'bad signature',
        samlResponse(
          { inResponseTo: flow.requestId, email, key: keys.otherKey },
          provider.service.acsURL,
          provider.service.entityID,
        ),
      ],
      [
        'tampered',
        samlResponse(
          { inResponseTo: flow.requestId, email, tamper: (x) => x.replace(`>${email}<`, '>admin@example.org<') },
          provider.service.acsURL,
          provider.service.entityID,
        ),
      ],
      [
        'wrong audience',
        samlResponse(
          { inResponseTo: flow.requestId, email, audience: 'https://other-sp.example' },
          provider.service.acsURL,
          provider.service.entityID,
        ),
      ],
      [
        'expired',
        samlResponse(
          { inResponseTo: flow.requestId, email, validFor: -300 },
          provider.service.acsURL,
          provider.service.entityID,
        ),
      ],
      [
        'wrong InResponseTo',
        samlResponse({ inResponseTo: '_not-our-request', email }, provider.service.acsURL, provider.service.entityID),
      ],
      [
        'wrong recipient',
        samlResponse(
          { inResponseTo: flow.requestId, email, recipient: 'https://evil.example/acs' },
          provider.service.acsURL,
          provider.service.entityID,
        ),
      ],
      ['not XML', Buffer.from('<nope').toString('base64')],
    ];
    for (const [why, response] of refusals) {
      const res = await post(response);
      expect(res.status, why).toBe(401);
      expect(
        res.cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`)),
        why,
      ).toBe(false);
    }
    expect((await post(good, 'forged-relay-state')).status).toBe(410);

    const browser = new CookieJar();
    const acs = { SAMLResponse: good, RelayState: flow.relayState };
    await expectSsoSignedIn(t, browser, await quire(browser, 'POST', `/saml/${provider.id}/acs`, acs), {
      location: '/account?saml=1',
      email,
      name: 'Sam Lee',
      organizationId,
      role: 'comment',
    });
    expect((await quire(browser, 'GET', '/account')).body).toContain(email);

    // Replayed: with its own RelayState (used), and with a new sign-in's (not its request).
    expect((await post(good)).status).toBe(410);
    const second = await start(provider.id);
    expect((await post(good, second.relayState)).status).toBe(401);
  });

  it("refuses the takeover: another organization's SAML provider asserting a signed-in admin's e-mail", async () => {
    const victim = await seedOrganization(t, {}, { title: 'Victim Org' });
    const attacker = await configured();
    const em = t.em();
    const browser = new CookieJar();
    browser.take([await sessionStarter(em, { config: t.svc.deps.config, userId: victim.admin.id })]);
    await em.flush();
    const acs = async (jar: CookieJar) => {
      const started = await quire(jar, 'GET', `/saml/${attacker.provider.id}/start`);
      const flow = authnRequestOf(started.headers.location!);
      const SAMLResponse = samlResponse(
        { inResponseTo: flow.requestId, email: victim.admin.email },
        attacker.provider.service.acsURL,
        attacker.provider.service.entityID,
      );
      const res = await quire(jar, 'POST', `/saml/${attacker.provider.id}/acs`, {
        SAMLResponse,
        RelayState: flow.relayState,
      });
      // The cross-site POST only redirects to a same-site page (where a SameSite=Lax session comes along).
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/^\/sso\/link\?token=[\w-]{43}$/);
      return quire(jar, 'GET', res.headers.location!);
    };
    // The IdP's cross-site POST lands with her session: a page asking her, nothing linked.
    const page = await acs(browser);
    expect(page.status).toBe(200);
    expect(page.body).toContain('The organization “Acme Docs” signs you in with its identity provider “Acme SAML”');
    expect(await t.em().count(SsoIdentity, { providerId: attacker.provider.id })).toBe(0);
    expect(
      await t.em().findOne(Membership, { organizationId: attacker.organizationId, userId: victim.admin.id }),
    ).toBeNull();
    // Without her session (the attacker's own browser): 409, nobody signed in.
    const his = new CookieJar();
    const takeover = await acs(his);
    expect(takeover.status).toBe(409);
    expect(his.cookies.has(SESSION_COOKIE)).toBe(false);
    // Her click on the page (her CSRF token) is what links it.
    const form = {
      token: /name="token" value="([\w-]+)"/.exec(page.body)![1]!,
      _csrf: /name="_csrf" value="([\w-]+)"/.exec(page.body)![1]!,
    };
    expect((await quire(browser, 'POST', '/sso/link', form)).status).toBe(303);
    expect(await t.em().count(SsoIdentity, { providerId: attacker.provider.id, userId: victim.admin.id })).toBe(1);
  });

  it('is not offered, and refuses to start, until the provider is configured', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const pending = await t.call(ops.createOrganizationSAMLProvider, { organizationId, label: 'Half' }, admin.actor);
    expect((await quire(new CookieJar(), 'GET', `/login?organization=${organizationId}`)).body).not.toContain('Half');
    expect((await quire(new CookieJar(), 'GET', `/saml/${pending.id}/start`)).status).toBe(404);
    expect((await quire(new CookieJar(), 'POST', `/saml/${pending.id}/acs`, { SAMLResponse: 'x' })).status).toBe(404);
  });
});
