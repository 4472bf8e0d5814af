import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemberRole } from '@gitbook/api';
import { axe, hasChromium, useChromium } from './browser.ts';
import { apiError } from './harness.ts';
import { formOf, postForm, sessionCookie, useMailedInstance } from './mailbox.ts';

const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

/** Ann's instance: its mails caught. */
const { p, acme, mailbox } = useMailedInstance();

describe.skipIf(!hasChromium)('a new member gets in by themselves, in Chromium', () => {
  const browser = useChromium();

  it('invite → e-mail → accept → token that works with the official client → revoke', { timeout: 60_000 }, async () => {
    const invited = await p
      .client(acme.token)
      .orgs.inviteUsersToOrganization(acme.organization.id, { emails: ['bob@acme.io'], role: MemberRole.Edit });
    const bobPath = `/orgs/${acme.organization.id}/members/${invited.data.users[0]}`;
    expect((await p.get(acme.token, bobPath)).body.lastSeenAt).toBeUndefined();
    const page = await browser.newPage();
    await page.goto(await mailbox.linkFor('bob@acme.io', '/invites/accept', p.url));
    expect(await page.getByRole('heading', { name: 'Invitation' }).count()).toBe(1);
    expect(await page.textContent('main')).toContain('You are invited to join Acme with the role edit.');
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.waitForURL(`${p.url}/account`);
    expect(await page.textContent('main')).toContain('Signed in as bob <bob@acme.io>.');
    expect(await page.getByRole('listitem').allTextContents()).toEqual(['Acme (edit)']);
    expect(await axe(page)).toEqual([]);

    await page.getByLabel('Token label').fill('laptop <ci>');
    await page.getByRole('button', { name: 'Create a token' }).click();
    const token = (await page.locator('#token-value').textContent())!;
    expect(token).toMatch(/^quire_/);
    expect(await page.getByRole('cell', { name: 'laptop <ci>', exact: true }).count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    const me = await p.client(token).user.getAuthenticatedUser();
    expect(me.data.email).toBe('bob@acme.io');
    const member = await p.client(token).orgs.getMemberInOrganizationById(acme.organization.id, me.data.id);
    expect(member.data.role).toBe('edit');
    // The sign-in counts as a visit: the API's member shows it.
    expect((await p.get(acme.token, `/orgs/${acme.organization.id}/members/${me.data.id}`)).body.lastSeenAt).toMatch(
      /^\d{4}-/,
    );

    await page.goto(`${p.url}/account`);
    expect(await page.locator('#token-value').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke laptop <ci>' }).click();
    await page.waitForURL(`${p.url}/account`);
    expect(await page.textContent('main')).toContain('You have no API tokens.');
    await expect
      .poll(async () => (await apiError(p.client(token).user.getAuthenticatedUser())).code, { timeout: 5_000 })
      .toBe(401);

    // Signed in elsewhere too (a script: fetch's User-Agent), the account lists both sessions, this browser's marked.
    const elsewhere = await sessionCookie(p.url, mailbox, 'bob@acme.io');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${p.url}/account`);
    const rows = page.getByRole('table', { name: 'Browsers signed in to your account' }).getByRole('row');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(1).getByRole('cell').first().textContent()).toBe('Unknown browser127.0.0.1');
    expect(await rows.nth(2).getByRole('cell').first().textContent()).toBe('This browser: Chrome on Linux127.0.0.1');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'account-sessions-375.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'account-sessions-375-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.waitForURL(`${p.url}/account`);
    expect(await page.textContent('main')).toContain('You are signed in in this browser only.');
    const gone = await fetch(`${p.url}/account`, { headers: { cookie: elsewhere }, redirect: 'manual' });
    expect(gone.status).toBe(303);

    // Signing out ends the session and comes back to the sign-in page.
    await page.goto(`${p.url}/account`);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${p.url}/login`);
    expect(await axe(page)).toEqual([]);
  });

  it('signs in with an e-mail link, back to the page asked for', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(`${p.url}/account`);
    await page.waitForURL(`${p.url}/login?next=%2Faccount`);
    await page.getByLabel('E-mail address').fill('ann@acme.io');
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    expect(await page.textContent('main')).toContain('If ann@acme.io has an account, a sign-in link is on its way.');
    await page.goto(await mailbox.linkFor('ann@acme.io', '/login/verify', p.url));
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${p.url}/account`);
    expect(await page.textContent('main')).toContain('Signed in as Ann <ann@acme.io>.');
  });
});

describe('hostile requests to the sign-in pages', () => {
  it('refuses a form without its CSRF token, or with another one', async () => {
    const { cookie, csrf } = await formOf(`${p.url}/login`);
    expect(csrf).toMatch(/^[\w-]{43}$/);
    expect((await postForm(`${p.url}/login`, cookie, { email: 'ann@acme.io' })).status).toBe(403);
    expect((await postForm(`${p.url}/login`, cookie, { email: 'ann@acme.io', _csrf: 'x'.repeat(43) })).status).toBe(
      403,
    );
    expect((await postForm(`${p.url}/login`, '', { email: 'ann@acme.io', _csrf: csrf })).status).toBe(403);
    expect(mailbox.mails).toEqual([]);
  });

  it('ignores next= to another site, and refuses the session cookie after sign-out', async () => {
    const login = await formOf(`${p.url}/login?next=https://evil.example/x`);
    expect(login.html).toContain('name="next" value="/account"');
    for (const next of ['https://evil.example', '//evil.example/a', '/\\evil.example']) {
      const sent = await postForm(`${p.url}/login`, login.cookie, { email: 'ann@acme.io', next, _csrf: login.csrf });
      expect(sent.status).toBe(200);
      const link = await mailbox.linkFor('ann@acme.io', '/login/verify', p.url);
      const confirm = await formOf(link, login.cookie);
      const res = await postForm(`${p.url}/login/verify`, confirm.cookie, {
        token: new URL(link).searchParams.get('token')!,
        _csrf: confirm.csrf,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/account');
      const session = res.headers.getSetCookie().find((c) => c.startsWith('quire_session='))!;
      expect(session).toMatch(/; HttpOnly; SameSite=Lax/);
      const cookie = `${login.cookie}; ${session.split(';')[0]}`;
      const account = await formOf(`${p.url}/account`, cookie);
      expect(account.html).toContain('Signed in as Ann');
      expect((await postForm(`${p.url}/logout`, cookie, { _csrf: account.csrf })).status).toBe(303);
      const replay = await fetch(`${p.url}/account`, { headers: { cookie }, redirect: 'manual' });
      expect(replay.status).toBe(303);
      expect(replay.headers.get('location')).toBe('/login?next=%2Faccount');
    }
  });

  it('answers a used, revoked or unknown invitation with a clear page', async () => {
    await p.client(acme.token).orgs.inviteUsersToOrganization(acme.organization.id, { emails: ['cy@acme.io'] });
    const first = await mailbox.linkFor('cy@acme.io', '/invites/accept', p.url);
    await p.client(acme.token).orgs.inviteUsersToOrganization(acme.organization.id, { emails: ['dee@acme.io'] });
    const dee = await mailbox.linkFor('dee@acme.io', '/invites/accept', p.url);
    const [cy] = await p.sql<{ user_id: string }>(
      `select user_id from org_admin.invite i join org_admin."user" u on u.id = i.user_id where u.email = 'cy@acme.io'`,
    );
    await p.client(acme.token).orgs.removeMemberFromOrganizationById(acme.organization.id, cy!.user_id);
    const revoked = await fetch(first);
    expect(revoked.status).toBe(410);
    expect(await revoked.text()).toContain('Invitation revoked');
    const form = await formOf(dee);
    const token = new URL(dee).searchParams.get('token')!;
    expect((await postForm(`${p.url}/invites/accept`, form.cookie, { token, _csrf: form.csrf })).status).toBe(303);
    const used = await fetch(dee);
    expect(used.status).toBe(410);
    expect(await used.text()).toContain('Invitation already used');
    expect((await fetch(`${p.url}/invites/accept?token=nope`)).status).toBe(404);

    await p.client(acme.token).orgs.inviteUsersToOrganization(acme.organization.id, { emails: ['eve@acme.io'] });
    const eve = await mailbox.linkFor('eve@acme.io', '/invites/accept', p.url);
    await p.sql(`update org_admin.invite set expires_at = now() - interval '1 second' where used_at is null`);
    const expired = await fetch(eve);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('Invitation expired');
  });

  it('signs in once with a link sent twice at the same time', async () => {
    const login = await formOf(`${p.url}/login`);
    await postForm(`${p.url}/login`, login.cookie, { email: 'ann@acme.io', _csrf: login.csrf });
    const token = new URL(await mailbox.linkFor('ann@acme.io', '/login/verify', p.url)).searchParams.get('token')!;
    const both = await Promise.all(
      [0, 1].map(() => postForm(`${p.url}/login/verify`, login.cookie, { token, _csrf: login.csrf })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([303, 410]);
  });

  it('throttles a brute force of sign-in links', async () => {
    const { cookie, csrf } = await formOf(`${p.url}/login`);
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++)
      statuses.push((await postForm(`${p.url}/login/verify`, cookie, { token: `guess${i}`, _csrf: csrf })).status);
    expect(statuses.filter((s) => s === 410).length).toBeLessThanOrEqual(10);
    expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
  });
});
