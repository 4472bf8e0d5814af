import { beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';
import { CookieJar, expectSsoSignedIn, signInRequest } from '../oidc/oidc-provider.testing.ts';
import { SESSION_COOKIE } from '../sessions/sessions.ts';
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

  it('is not offered, and refuses to start, until the provider is configured', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const pending = await t.call(ops.createOrganizationSAMLProvider, { organizationId, label: 'Half' }, admin.actor);
    expect((await quire(new CookieJar(), 'GET', `/login?organization=${organizationId}`)).body).not.toContain('Half');
    expect((await quire(new CookieJar(), 'GET', `/saml/${pending.id}/start`)).status).toBe(404);
    expect((await quire(new CookieJar(), 'POST', `/saml/${pending.id}/acs`, { SAMLResponse: 'x' })).status).toBe(404);
  });
});
