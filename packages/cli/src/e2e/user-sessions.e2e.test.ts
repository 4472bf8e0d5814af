import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, type Platform, startPlatform } from './harness.ts';
import { type Mailbox, sessionCookie, startMailbox } from './mailbox.ts';

/**
 * The user's own sign-in sessions through the gateway: the account page (`/account`, server-rendered forms) and the
 * Quire-only `/v1/user/sessions` operations, with a session cookie (the app) or an API token (a script).
 */
const PUBLIC_URL = 'http://quire.test';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let p: Platform;
let mailbox: Mailbox;
let token: string;
let otherToken: string;
beforeAll(async () => {
  mailbox = await startMailbox(PUBLIC_URL);
  p = await startPlatform({ env: { QUIRE_PUBLIC_URL: PUBLIC_URL, QUIRE_SMTP_URL: mailbox.url } });
  token = (await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann')).token;
  otherToken = (await bootstrap(p, 'Other', 'olga@other.io')).token;
}, 120_000);
afterAll(async () => {
  await p?.stop();
  await mailbox?.close();
});

// The instance sends an account 5 sign-in links in 15 minutes: Ann signs in 5 times, Olga once.
const signIn = (userAgent: string, email = 'ann@acme.io') => sessionCookie(p.url, mailbox, email, userAgent);
const page = (cookie: string) => fetch(`${p.url}/account`, { headers: { cookie }, redirect: 'manual' });
const csrfOf = (html: string) => html.match(/name="_csrf" value="([^"]+)"/)![1]!;
const post = (cookie: string, path: string, fields: Record<string, string>) =>
  fetch(`${p.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
interface Listed {
  items: { id: string; browser: string; ipAddress?: string; current: boolean }[];
}
const listWith = async (headers: Record<string, string>) => {
  const res = await fetch(`${p.url}/v1/user/sessions`, { headers });
  return { status: res.status, body: (await res.json()) as Listed };
};

describe('signed-in sessions', () => {
  it('shows them on the account page, this browser marked; signing one out ends its cookie', async () => {
    const laptop = await signIn(FIREFOX);
    const phone = await signIn(SAFARI);
    const res = await page(laptop);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h2 id="sessions">Signed-in sessions</h2>');
    expect(html).toContain('<td><strong>This browser</strong>: Firefox on Linux<br><small>');
    expect(html).toContain('Safari on iOS');
    expect(html).not.toContain(laptop.split('=')[1]!);
    expect(html).not.toContain(phone.split('=')[1]!);

    // The app's own call lists them too, this browser's current.
    const listed = await listWith({ cookie: laptop });
    expect(listed.status).toBe(200);
    const phoneId = listed.body.items.find((s) => s.browser === 'Safari on iOS')!.id;
    expect(listed.body.items.filter((s) => s.current).map((s) => s.browser)).toEqual(['Firefox on Linux']);

    const csrf = csrfOf(html);
    expect((await post(laptop, '/account/sessions/revoke', { sessionId: phoneId, _csrf: 'forged' })).status).toBe(403);
    expect((await page(phone)).status).toBe(200);
    const out = await post(laptop, '/account/sessions/revoke', { sessionId: phoneId, _csrf: csrf });
    expect([out.status, out.headers.get('location')]).toEqual([303, '/account']);
    // The phone's cookie no longer opens the account page nor calls the API.
    expect((await page(phone)).headers.get('location')).toBe('/login?next=%2Faccount');
    expect((await listWith({ cookie: phone })).status).toBe(401);
    expect(await (await page(laptop)).text()).not.toContain('Safari on iOS');

    // Sign out everywhere else: every other browser, not this one.
    const again = await signIn(SAFARI);
    const third = await signIn(FIREFOX);
    const others = await post(laptop, '/account/sessions/revoke-others', { _csrf: csrf });
    expect(others.status).toBe(303);
    expect((await page(again)).status).toBe(303);
    expect((await page(third)).status).toBe(303);
    const alone = await (await page(laptop)).text();
    expect(alone).toContain('You are signed in in this browser only.');
  });

  it('lets a script with an API token list and sign out its user’s sessions, and no one else’s', async () => {
    const phone = await signIn(SAFARI);
    const listed = await listWith({ authorization: `Bearer ${token}` });
    expect(listed.status).toBe(200);
    const mine = listed.body.items.find((s) => s.browser === 'Safari on iOS')!;
    expect(mine).toMatchObject({ object: 'user-session', current: false, ipAddress: expect.any(String) });

    // Another organization's admin does not see it: 404, as an unknown session.
    const del = (id: string, bearer: string) =>
      fetch(`${p.url}/v1/user/sessions/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${bearer}` } });
    const refused = await del(mine.id, otherToken);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: { code: 404, message: 'Session not found' } });
    expect((await listWith({ authorization: `Bearer ${otherToken}` })).body.items).toEqual([]);
    expect((await page(phone)).status).toBe(200);

    expect((await del(mine.id, token)).status).toBe(204);
    expect((await page(phone)).status).toBe(303);
    expect((await del(mine.id, token)).status).toBe(404);
  });

  it('needs the CSRF header for the app to sign out a session with its cookie', async () => {
    const laptop = await signIn(FIREFOX, 'olga@other.io');
    const { items } = (await listWith({ cookie: laptop })).body;
    const current = items.find((s) => s.current)!;
    const url = `${p.url}/v1/user/sessions/${current.id}`;
    expect((await fetch(url, { method: 'DELETE', headers: { cookie: laptop } })).status).toBe(403);
    const csrf = csrfOf(await (await page(laptop)).text());
    const res = await fetch(url, { method: 'DELETE', headers: { cookie: laptop, 'x-quire-csrf': csrf } });
    expect(res.status).toBe(204);
    expect((await page(laptop)).status).toBe(303);
  });
});
