import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { secretBoxOf, setTxtResolver } from '@quire/kit';
import { failureOf, reasonOf, TEST_SECRET, TEST_SECRETS_KEY, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { sessionStarter } from '../../commands/session-starter.ts';
import { SESSION_COOKIE } from '../sessions/sessions.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { User } from '../users/user.entity.ts';
import { OidcProvider, SsoIdentity } from './oidc-provider.entity.ts';
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

/** The DNS of the test: TXT records by name. */
const dns = new Map<string, string[]>();

beforeAll(async () => {
  contentWithoutSpaces(t.svc.deps.peers);
  setTxtResolver(async (name) => dns.get(name) ?? []);
  // The provider's client accepts the redirect URIs the tests register (pushed before each sign-in starts).
  idp = await startTestOidcProvider({ ...CLIENT, redirectUris });
});
afterAll(async () => {
  setTxtResolver(null);
  await idp?.close();
});

/** One request of the browser to Quire's sign-in pages (what the gateway sends to org-admin). */
const quire = (jar: CookieJar, method: 'GET' | 'POST', url: string, form?: Record<string, string>) =>
  signInRequest(t, '127.0.0.9', jar, method, url, form);

/** A browser signed in as the user (a session started as the e-mail link does). */
async function signedInAs(userId: string): Promise<CookieJar> {
  const em = t.em();
  const set = await sessionStarter(em, { config: t.svc.deps.config, userId });
  await em.flush();
  const jar = new CookieJar();
  jar.take([set]);
  return jar;
}

/** The CSRF token of the browser's session, read from its account page. */
async function csrfOf(jar: CookieJar): Promise<string> {
  return /name="_csrf" value="([\w-]+)"/.exec((await quire(jar, 'GET', '/account')).body)![1]!;
}

/**
 * Where a callback asking for a link sends the browser: the callback only redirects to `/sso/link` (no session, nothing
 * linked); the page there is followed. Any other answer is returned as it is.
 */
async function toLinkPage(jar: CookieJar, res: Awaited<ReturnType<typeof quire>>) {
  if (res.status !== 303 || !res.headers.location?.startsWith('/sso/link?token=')) return res;
  expect(res.cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/max-age=0/i.test(c))).toBe(false);
  return quire(jar, 'GET', res.headers.location);
}

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

async function configured(opts: { defaultRole?: 'edit' | 'comment' | null; team?: boolean } = {}) {
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

  it('never links an existing account by itself: its owner is told to sign in first', async () => {
    const mine = await configured({ defaultRole: null });
    const other = await seedOrganization(t, { zed: 'admin' });
    // Eve belongs to this organization only, Zed to another one: neither is signed in nor linked by e-mail alone.
    for (const [who, email] of [
      ['eve', mine.users.eve.email],
      ['zed', other.users.zed.email],
    ] as const) {
      const browser = new CookieJar();
      const started = await quire(browser, 'GET', `/oidc/${mine.provider.id}/start`);
      idp.signInAs({ sub: `${who}-${mine.organizationId}`, email, emailVerified: true });
      const page = await toLinkPage(browser, await quire(browser, 'GET', await throughIdp(started.headers.location!)));
      expect(page.status, who).toBe(409);
      expect(page.body).toContain('Link your account first');
      expect(page.body).toContain('“Acme ID” of the organization “Acme Docs”');
      expect(page.body).toContain(`href="/login?next=${encodeURIComponent(`/oidc/${mine.provider.id}/start`)}"`);
      expect(browser.cookies.has(SESSION_COOKIE), who).toBe(false);
      expect(await t.em().count(SsoIdentity, { providerId: mine.provider.id })).toBe(0);
    }
    expect(
      await t.em().findOne(Membership, { organizationId: mine.organizationId, userId: other.users.zed.id }),
    ).toBeNull();
  });

  it("refuses the takeover: another organization's provider asserting a signed-in admin's e-mail", async () => {
    const victim = await seedOrganization(t, {}, { title: 'Victim Org' });
    const attacker = await configured({ defaultRole: 'edit' });
    // The victim is signed in to Quire in her browser; the attacker sends her to his provider's start URL.
    const browser = await signedInAs(victim.admin.id);
    const sessionBefore = browser.cookies.get(SESSION_COOKIE);
    const started = await quire(browser, 'GET', `/oidc/${attacker.provider.id}/start`);
    idp.signInAs({ sub: 'attacker-sub', email: victim.admin.email, emailVerified: true });
    const page = await toLinkPage(browser, await quire(browser, 'GET', await throughIdp(started.headers.location!)));
    // Every step was a top-level GET: what it ends on is a page asking her, nothing linked, no new session.
    expect(page.status).toBe(200);
    expect(page.body).toContain('Link your account?');
    expect(page.body).toContain('The organization “Acme Docs” signs you in with its identity provider “Acme ID”');
    expect(page.body).toMatch(
      /<form method="post" action="\/sso\/link"><input type="hidden" name="_csrf" value="[\w-]{43}">/,
    );
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(browser.cookies.get(SESSION_COOKIE)).toBe(sessionBefore);
    expect(await t.em().count(SsoIdentity, { providerId: attacker.provider.id })).toBe(0);
    expect(
      await t.em().findOne(Membership, { organizationId: attacker.organizationId, userId: victim.admin.id }),
    ).toBeNull();
    // A cross-site POST carries no CSRF token of hers: refused.
    const token = /name="token" value="([\w-]+)"/.exec(page.body)![1]!;
    expect((await quire(browser, 'POST', '/sso/link', { token })).status).toBe(403);
    expect((await quire(browser, 'POST', '/sso/link', { token, _csrf: 'x'.repeat(43) })).status).toBe(403);
    // Her confirmation page's token in the attacker's own session: not his to confirm.
    const attackerBrowser = await signedInAs(attacker.admin.id);
    const csrfOfAttacker = await csrfOf(attackerBrowser);
    expect((await quire(attackerBrowser, 'POST', '/sso/link', { token, _csrf: csrfOfAttacker })).status).toBe(410);
    // The attacker then signs in through his provider as the victim, in his own browser: refused.
    const his = new CookieJar();
    const again = await quire(his, 'GET', `/oidc/${attacker.provider.id}/start`);
    idp.signInAs({ sub: 'attacker-sub', email: victim.admin.email, emailVerified: true });
    const takeover = await toLinkPage(his, await quire(his, 'GET', await throughIdp(again.headers.location!)));
    expect(takeover.status).toBe(409);
    expect(his.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await t.em().count(SsoIdentity, { providerId: attacker.provider.id })).toBe(0);
  });

  it('links when the signed-in owner confirms with a click, once', async () => {
    const mine = await configured({ defaultRole: 'comment', team: true });
    const other = await seedOrganization(t, { zed: 'admin' });
    const browser = await signedInAs(other.users.zed.id);
    const started = await quire(browser, 'GET', `/oidc/${mine.provider.id}/start?next=%2Faccount%3Flinked%3D1`);
    idp.signInAs({ sub: 'zed-at-acme', email: other.users.zed.email, emailVerified: true });
    const page = await toLinkPage(browser, await quire(browser, 'GET', await throughIdp(started.headers.location!)));
    expect(page.status).toBe(200);
    const form = {
      token: /name="token" value="([\w-]+)"/.exec(page.body)![1]!,
      _csrf: /name="_csrf" value="([\w-]+)"/.exec(page.body)![1]!,
    };
    const sessionBefore = browser.cookies.get(SESSION_COOKIE);
    const done = await quire(browser, 'POST', '/sso/link', form);
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/account?linked=1');
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(sessionBefore);
    expect(
      await t.em().findOneOrFail(SsoIdentity, { providerId: mine.provider.id, subject: 'zed-at-acme' }),
    ).toMatchObject({ userId: other.users.zed.id });
    expect(
      await t.em().findOneOrFail(Membership, { organizationId: mine.organizationId, userId: other.users.zed.id }),
    ).toMatchObject({ role: 'comment', sso: true });
    expect(await t.em().findOne(TeamMember, { team: mine.team!.id, userId: other.users.zed.id })).not.toBeNull();
    // The same confirmation again: used.
    const csrf = await csrfOf(browser);
    expect((await quire(browser, 'POST', '/sso/link', { token: form.token, _csrf: csrf })).status).toBe(410);
    // From now on the provider signs him in directly, in any browser.
    const elsewhere = new CookieJar();
    const next = await quire(elsewhere, 'GET', `/oidc/${mine.provider.id}/start`);
    idp.signInAs({ sub: 'zed-at-acme', email: other.users.zed.email, emailVerified: true });
    const signed = await quire(elsewhere, 'GET', await throughIdp(next.headers.location!));
    expect(signed.status).toBe(303);
    expect(elsewhere.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  it("signs in an existing account by itself once the organization proved the e-mail's domain by DNS", async () => {
    const mine = await configured({ defaultRole: null });
    const outsider = await seedOrganization(t, { zed: 'admin' });
    const domain = mine.users.eve.email.split('@')[1]!;
    const claim = await t.call(
      ops.upsertOrganizationEmailDomain,
      { organizationId: mine.organizationId, emailDomain: domain },
      mine.admin.actor,
    );
    const signInWithIdp = async (sub: string, email: string) => {
      const browser = new CookieJar();
      const started = await quire(browser, 'GET', `/oidc/${mine.provider.id}/start`);
      idp.signInAs({ sub, email, emailVerified: true });
      const res = await quire(browser, 'GET', await throughIdp(started.headers.location!));
      return { browser, res: await toLinkPage(browser, res) };
    };
    // Claimed but not proven: still the owner's to link.
    expect((await signInWithIdp('eve-1', mine.users.eve.email)).res.status).toBe(409);
    dns.set(claim.record.name, [claim.record.value]);
    const verified = await t.call(
      ops.upsertOrganizationEmailDomain,
      { organizationId: mine.organizationId, emailDomain: domain },
      mine.admin.actor,
    );
    expect(verified.verified).toBe(true);
    const eve = await signInWithIdp('eve-1', mine.users.eve.email);
    expect(eve.res.status).toBe(303);
    expect(eve.browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await t.em().findOneOrFail(SsoIdentity, { providerId: mine.provider.id, subject: 'eve-1' })).toMatchObject({
      userId: mine.users.eve.id,
    });
    // The proof covers that domain only: an account of another domain still needs its owner.
    expect((await signInWithIdp('zed-1', outsider.users.zed.email)).res.status).toBe(409);
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
