import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { secretBoxOf } from '@quire/kit';
import { failureOf, reasonOf, TEST_SECRET, TEST_SECRETS_KEY, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { SESSION_COOKIE } from '../sessions/sessions.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { User } from '../users/user.entity.ts';
import { OidcProvider } from './oidc-provider.entity.ts';
import { resealOidcSecrets } from './reseal-oidc-secrets.job.ts';
import {
  CookieJar,
  expectSsoSignedIn,
  signInRequest,
  startTestOidcProvider,
  type TestOidcProvider,
} from './oidc-provider.testing.ts';
import { contentWithoutSpaces } from '../teams/team-spaces.testing.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, {
  label: 'oidc',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});
const CLIENT = { clientId: 'quire', clientSecret: 'client-secret-0123456789abcdef' };

let idp: TestOidcProvider;
const redirectUris: string[] = [];

beforeAll(async () => {
  contentWithoutSpaces(t.svc.deps.peers);
  // The provider's client accepts the redirect URIs the tests register (pushed before each sign-in starts).
  idp = await startTestOidcProvider({ ...CLIENT, redirectUris });
});
afterAll(() => idp?.close());

/** One request of the browser to Quire's sign-in pages (what the gateway sends to org-admin). */
const quire = (jar: CookieJar, method: 'GET' | 'POST', url: string, form?: Record<string, string>) =>
  signInRequest(t, '127.0.0.9', jar, method, url, form);

/** Follows the identity provider's redirects (its own cookies kept) until it sends the browser back to Quire. */
async function throughIdp(start: string): Promise<string> {
  const jar = new CookieJar();
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith('http://quire.test/')) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (!location)
      throw new Error(
        `the identity provider answered ${res.status}: ${(await res.text())
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 600)}`,
      );
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}

async function configured(opts: { defaultRole?: 'edit' | null; team?: boolean } = {}) {
  const seeded = await seedOrganization(t, { eve: 'read' });
  const team = opts.team
    ? await t.call(
        ops.createOrganizationTeam,
        { organizationId: seeded.organizationId, title: 'SSO people' },
        seeded.admin.actor,
      )
    : undefined;
  const provider = await t.call(
    ops.createOrganizationOIDCProvider,
    {
      organizationId: seeded.organizationId,
      label: 'Acme ID',
      issuer: idp.issuer,
      ...CLIENT,
      defaultRole: opts.defaultRole ?? null,
      ...(team ? { defaultTeam: team.id } : {}),
    },
    seeded.admin.actor,
  );
  redirectUris.push(provider.service.redirectURL);
  return { ...seeded, provider, team };
}

describe('OpenID Connect providers (configuration)', () => {
  it('stores the client secret sealed, never returns it; admins only', async () => {
    const { organizationId, admin, users, provider } = await configured();
    expect(provider).toMatchObject({
      object: 'oidc-provider',
      label: 'Acme ID',
      issuer: idp.issuer,
      clientId: 'quire',
      hasClientSecret: true,
      scopes: ['openid', 'email', 'profile'],
      defaultRole: null,
    });
    expect(JSON.stringify(provider)).not.toContain(CLIENT.clientSecret);
    expect(provider.service).toEqual({
      redirectURL: `http://quire.test/oidc/${provider.id}/callback`,
      startURL: `http://quire.test/oidc/${provider.id}/start`,
    });
    const row = await t.em().findOneOrFail(OidcProvider, { id: provider.id });
    expect(row.clientSecret).toMatch(/^v1\./);
    expect(row.clientSecret).not.toContain(CLIENT.clientSecret);
    const updated = await t.call(
      ops.updateOrganizationOIDCProvider,
      { organizationId, oidcProviderId: provider.id, scopes: ['groups'], clientSecret: null },
      admin.actor,
    );
    expect(updated).toMatchObject({ hasClientSecret: false, scopes: ['openid', 'email', 'groups'] });
    expect((await t.call(ops.listOIDCProvidersInOrganization, { organizationId }, admin.actor)).count).toBe(1);
    expect(await reasonOf(t.call(ops.listOIDCProvidersInOrganization, { organizationId }, users.eve.actor))).toBe(
      'forbidden',
    );
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ issuer: 'ftp://idp.example' }, /issuer/],
      [{ issuer: 'https://idp.example', clientId: '' }, /clientId/],
      [{ issuer: 'https://idp.example', scopes: ['a b'] }, /scopes/],
    ];
    for (const [body, msg] of bad) {
      const err = await failureOf(
        t.call(
          ops.createOrganizationOIDCProvider,
          { organizationId, label: 'X', clientId: 'c', ...body } as never,
          admin.actor,
        ),
      );
      expect(err.reason).toBe('invalid_input');
      expect(err.message).toMatch(msg);
    }
    // A rotation of QUIRE_SECRETS_KEY: the job re-seals the secret under the new key, the old one still opens it.
    await t.call(
      ops.updateOrganizationOIDCProvider,
      { organizationId, oidcProviderId: provider.id, clientSecret: CLIENT.clientSecret },
      admin.actor,
    );
    const base = { DATABASE_URL: t.db.url, QUIRE_INTERNAL_SECRET: TEST_SECRET };
    const before = loadOrgAdminConfig({ ...base, QUIRE_SECRETS_KEY: TEST_SECRETS_KEY });
    const rotated = loadOrgAdminConfig({
      ...base,
      QUIRE_SECRETS_KEY: 'rotated-secrets-key-0123456789abcdef',
      QUIRE_SECRETS_PREVIOUS_KEYS: TEST_SECRETS_KEY,
    });
    expect(await resealOidcSecrets(t.em(), rotated)).toMatchObject({ resealed: 1 });
    const resealed = (await t.em().findOneOrFail(OidcProvider, { id: provider.id })).clientSecret!;
    expect(secretBoxOf(rotated).open(resealed, `oidc:${provider.id}`)).toBe(CLIENT.clientSecret);
    expect(secretBoxOf(before).canOpen(resealed)).toBe(false);
    expect(await resealOidcSecrets(t.em(), rotated)).toEqual({ resealed: 0, unknownKey: 0 });
    await t.call(ops.deleteOrganizationOIDCProvider, { organizationId, oidcProviderId: provider.id }, admin.actor);
    expect(
      await reasonOf(
        t.call(ops.getOrganizationOIDCProviderById, { organizationId, oidcProviderId: provider.id }, admin.actor),
      ),
    ).toBe('not_found');
  });
});

describe('signing in with OpenID Connect (oidc-provider on loopback)', () => {
  it('code flow with PKCE, state and nonce: a new person becomes a member with the default role and team', async () => {
    const { organizationId, provider, team } = await configured({ defaultRole: 'edit', team: true });
    const browser = new CookieJar();
    const login = await quire(browser, 'GET', `/login?organization=${organizationId}&next=/account`);
    expect(login.body).toContain(`<a href="/oidc/${provider.id}/start">Sign in with Acme ID</a>`);

    const start = await quire(browser, 'GET', `/oidc/${provider.id}/start?next=%2Faccount%3Ftab%3D1`);
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.location!);
    expect(authorize.origin).toBe(idp.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'quire',
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: provider.service.redirectURL,
    });
    for (const p of ['state', 'nonce', 'code_challenge'])
      expect(authorize.searchParams.get(p)).toMatch(/^[A-Za-z0-9_-]{43,}$/);

    const email = `newbie-${Date.now()}@example.org`;
    idp.signInAs({ sub: `sub-${email}`, email, emailVerified: true, name: 'New Bie' });
    const back = await throughIdp(start.headers.location!);
    const user = await expectSsoSignedIn(t, browser, await quire(browser, 'GET', back), {
      location: '/account?tab=1',
      email,
      name: 'New Bie',
      organizationId,
      role: 'edit',
    });
    expect(await t.em().findOne(TeamMember, { team: team!.id, userId: user.id })).not.toBeNull();
    const account = await quire(browser, 'GET', '/account');
    expect(account.status).toBe(200);
    expect(account.body).toContain(email);

    // The callback replayed (same code and state): refused, nobody signed in again.
    const replay = new CookieJar();
    replay.cookies.set('quire_sso', 'x');
    expect((await quire(replay, 'GET', back)).status).toBe(410);

    // Signing in again with the same identity: the same user, no second membership.
    const again = new CookieJar();
    const start2 = await quire(again, 'GET', `/oidc/${provider.id}/start`);
    idp.signInAs({ sub: `sub-${email}`, email, emailVerified: true });
    const done2 = await quire(again, 'GET', await throughIdp(start2.headers.location!));
    expect(done2.headers.location).toBe('/account');
    expect(await t.em().count(User, { email })).toBe(1);
  });

  it('refuses a callback from another browser, a forged state, a refusal and an unverified e-mail', async () => {
    const { provider } = await configured();
    const browser = new CookieJar();
    const start = await quire(browser, 'GET', `/oidc/${provider.id}/start`);
    idp.signInAs({ sub: 'unverified', email: `unverified-${Date.now()}@example.org`, emailVerified: false });
    const back = await throughIdp(start.headers.location!);

    const other = await quire(new CookieJar(), 'GET', back);
    expect(other.status).toBe(403);
    expect(other.body).toContain('started in another browser');
    const forged = new URL(back);
    forged.searchParams.set('state', 'A'.repeat(43));
    expect((await quire(browser, 'GET', forged.href)).status).toBe(410);
    const refused = await quire(
      browser,
      'GET',
      `/oidc/${provider.id}/callback?error=access_denied&state=${new URL(back).searchParams.get('state')}`,
    );
    expect(refused.status).toBe(401);

    const unverified = await quire(browser, 'GET', back);
    expect(unverified.status).toBe(403);
    expect(unverified.body).toContain('verified e-mail');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await quire(new CookieJar(), 'GET', '/oidc/nope/start')).status).toBe(404);
  });

  it('links an existing account by verified e-mail only when no other organization has it', async () => {
    const mine = await configured({ defaultRole: null });
    const other = await seedOrganization(t, { zed: 'admin' });
    // Eve belongs to this organization only: linked. Zed belongs to another one: refused until he links it himself.
    const eve = new CookieJar();
    const startEve = await quire(eve, 'GET', `/oidc/${mine.provider.id}/start`);
    idp.signInAs({ sub: `eve-${mine.organizationId}`, email: mine.users.eve.email, emailVerified: true });
    const doneEve = await quire(eve, 'GET', await throughIdp(startEve.headers.location!));
    expect(doneEve.status).toBe(303);
    expect(
      await t.em().findOneOrFail(Membership, { organizationId: mine.organizationId, userId: mine.users.eve.id }),
    ).toMatchObject({ role: 'read', sso: false });

    const zed = new CookieJar();
    const startZed = await quire(zed, 'GET', `/oidc/${mine.provider.id}/start`);
    idp.signInAs({ sub: `zed-${mine.organizationId}`, email: other.users.zed.email, emailVerified: true });
    const takeover = await quire(zed, 'GET', await throughIdp(startZed.headers.location!));
    expect(takeover.status).toBe(409);
    expect(zed.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(
      await t.em().findOne(Membership, { organizationId: mine.organizationId, userId: other.users.zed.id }),
    ).toBeNull();
  });

  it('answers a page, not an error, when the provider cannot be reached', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const dead = await t.call(
      ops.createOrganizationOIDCProvider,
      { organizationId, label: 'Down', issuer: 'http://127.0.0.1:9/', clientId: 'c' },
      admin.actor,
    );
    const res = await quire(new CookieJar(), 'GET', `/oidc/${dead.id}/start`);
    expect(res.status).toBe(502);
    expect(res.body).toContain('cannot be reached');
  });
});
