import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { bootstrap, type Platform, startPlatform } from './harness.ts';

// Without an SMTP server, the instance admin reads the sign-in links Quire would have mailed in the app's outbox
// (`/admin/outbox`, docs/sign-in.md), with the instance admin token: the first sign-in works with no mail at all.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ env: { QUIRE_PUBLIC_URL: 'http://quire.test' } }); // no QUIRE_SMTP_URL
  await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
}, 60_000);
afterAll(async () => {
  await p?.stop();
});

describe.skipIf(!hasChromium)('the outbox, in Chromium', () => {
  const browser = useChromium();

  it('shows the instance admin the sign-in link the instance could not mail, which signs in', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    // Ann asks for a sign-in link: no SMTP server, so it waits in the outbox.
    await page.goto(`${p.url}/login`);
    await page.getByLabel('E-mail').fill('ann@acme.io');
    await page.getByRole('button', { name: /sign-in link/i }).click();
    await page.getByText('a sign-in link is on its way').waitFor();

    // The outbox needs no session; a wrong token is refused.
    await page.goto(`${p.url}/admin/outbox`);
    await page.getByRole('heading', { name: 'Outbox' }).waitFor();
    await page.getByLabel('Instance admin token').fill('quire_admin_wrong');
    await page.getByRole('button', { name: 'Open the outbox' }).click();
    await page.getByRole('alert').getByText('This is not the instance admin token.').waitFor();
    const adminToken = readFileSync(join(p.env.QUIRE_DATA_DIR!, 'admin-token'), 'utf8').trim();
    await page.getByLabel('Instance admin token').fill(adminToken);
    await page.getByRole('button', { name: 'Open the outbox' }).click();
    const mail = page.getByRole('list', { name: 'Mails' }).getByRole('listitem').first();
    await mail.getByText('ann@acme.io').waitFor();
    expect(await mail.getByRole('heading').textContent()).toBe('Your Quire sign-in link');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-outbox-375.png'), fullPage: true });

    // The link (written with the public URL) signs Ann in on this instance.
    const link = new URL((await mail.getByRole('link').getAttribute('href'))!);
    expect(link.origin).toBe('http://quire.test');
    await page.goto(`${p.url}${link.pathname}${link.search}`);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByText('Signed in as Ann <ann@acme.io>.').waitFor();
    await page.close();
  });
});
