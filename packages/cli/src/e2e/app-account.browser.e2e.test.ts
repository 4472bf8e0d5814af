import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { sessionCookie, useMailedInstance } from './mailbox.ts';

// The app's account screen (app/src/screens/Account*.tsx, docs/app.md): the user's own API tokens and sign-in
// sessions, through /v1 only, and the links between it and the server-rendered /account page.
/** Where the screenshots go: QUIRE_SCREENSHOTS, else the system's temporary directory. */
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const { p, acme, mailbox, sessions, signedIn, v1, changeRequest } = useMailedInstance();

describe.skipIf(!hasChromium)('the account screen of the app, in Chromium', () => {
  const browser = useChromium();

  it('opens a screen at every urls.app shape the API returns, none of them "No such screen"', {
    timeout: 120_000,
  }, async () => {
    const org = acme.organization.id;
    const collection = await v1(acme.token, 'POST', `/orgs/${org}/collections`, { title: 'Guides' });
    const space = await v1(acme.token, 'POST', `/orgs/${org}/spaces`, { title: 'Handbook' });
    const cr = await changeRequest(space.id, 'First page', [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } },
    ]);
    await v1(acme.token, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
    const page = await v1(acme.token, 'GET', `/spaces/${space.id}/content/path/welcome`);
    const revision = (await v1(acme.token, 'GET', `/spaces/${space.id}/revisions`)).items[0];
    const site = await v1(acme.token, 'POST', `/orgs/${org}/sites`, { title: 'Portal' });
    const text = 'openapi: 3.0.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n';
    await v1(acme.token, 'POST', `/orgs/${org}/openapi`, { slug: 'pets', source: { text } });
    await expect
      .poll(async () => (await v1(acme.token, 'GET', `/orgs/${org}/openapi/pets`)).processingState, { timeout: 60_000 })
      .toBe('complete');
    const spec = await v1(acme.token, 'GET', `/orgs/${org}/openapi/pets`);
    const integration = await v1(acme.token, 'POST', '/integrations/figma-embeds', {
      title: 'Figma embeds',
      description: 'Embed <b>Figma</b> frames',
      script: 'export default createIntegration({})',
      scopes: ['space:content:read'],
      organization: org,
    });
    const installation = await v1(acme.token, 'POST', '/integrations/figma-embeds/installations', {
      organization: org,
    });
    const { page: tab, violations } = await signedIn(browser, 'ann@acme.io');
    // Each urls.app, and what its screen shows first.
    const screens: [string, string, RegExp | string][] = [
      ['organization', (await v1(acme.token, 'GET', `/orgs/${org}`)).urls.app, 'Handbook'],
      ['collection', collection.urls.app, 'Handbook'],
      ['space', space.urls.app, 'Welcome'],
      ['page', page.urls.app, 'Hello.'],
      [
        'change request',
        (await v1(acme.token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}`)).urls.app,
        'Welcome',
      ],
      ['revision', revision.urls.app, 'Merged a change request'],
      ['site', site.urls.app, 'Portal'],
      ['OpenAPI specification', spec.urls.app, 'OpenAPI specification pets'],
      ['integration', integration.urls.app, 'Integration Figma embeds'],
      ['installation', installation.urls.app, 'Integration Figma embeds'],
    ];
    for (const [what, url, shown] of screens) {
      const path = new URL(url).pathname;
      await tab.goto(`${p.url}${path}`);
      await tab.locator('main').getByText(shown).first().waitFor();
      expect(await tab.getByRole('heading', { name: 'No such screen' }).count(), `${what}: ${path}`).toBe(0);
    }
    // The revision: what it changed.
    await tab.goto(`${p.url}${new URL(revision.urls.app).pathname}`);
    await tab
      .getByRole('list', { name: 'What Merged a change request changed' })
      .getByText('Page added: Welcome')
      .waitFor();
    // The change request it merged (named by what the merge changed: getRevisionById leaves it out), a link to it.
    await tab.getByRole('link', { name: `Open change request #${cr.number}` }).click();
    await tab.waitForURL(`**/~/changes/${cr.number}`);
    await tab.goBack();
    expect(await axe(tab)).toEqual([]);
    await tab.screenshot({ path: join(SHOTS, 'quire-app-revision.png'), fullPage: true });
    // The specification: its source and state.
    await tab.goto(`${p.url}${new URL(spec.urls.app).pathname}`);
    await tab.getByText('Given as text').waitFor();
    await tab.getByText('Processed', { exact: true }).waitFor();
    expect(await axe(tab)).toEqual([]);
    await tab.screenshot({ path: join(SHOTS, 'quire-app-openapi.png'), fullPage: true });
    // The installation: the integration (its description as text) and its state here.
    await tab.goto(`${p.url}${new URL(installation.urls.app).pathname}`);
    await tab.getByText('Embed <b>Figma</b> frames').waitFor();
    await tab.getByRole('heading', { name: 'In this organization' }).waitFor();
    await tab.locator('dd', { hasText: 'active' }).waitFor();
    expect(await axe(tab)).toEqual([]);
    await tab.screenshot({ path: join(SHOTS, 'quire-app-integration.png'), fullPage: true });
    // An address the API never gives says so, with a way back.
    await tab.goto(`${p.url}/o/${org}/s/${space.id}/~/nothing`);
    await tab.getByRole('heading', { name: 'No such screen' }).waitFor();
    expect(violations).toEqual([]);
    await tab.close();
  });

  it('creates a token shown once, copies and revokes it, and signs out another browser, then this one', {
    timeout: 120_000,
  }, async () => {
    const status = (token: string) =>
      fetch(`${p.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    const cookieStatus = (cookie: string) => fetch(`${p.url}/v1/user`, { headers: { cookie } }).then((r) => r.status);
    // Ann is signed in elsewhere too, in Firefox.
    const firefox = await sessionCookie(p.url, mailbox, 'ann@acme.io', FIREFOX);
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: p.url });

    // From the header of any screen to the account's tokens.
    await page.goto(`${p.url}/o/${acme.organization.id}`);
    await page.getByRole('navigation', { name: 'Account', exact: true }).getByRole('link', { name: 'Account' }).click();
    await page.waitForURL(`${p.url}/account/developer`);
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    await page.getByText('Signed in as Ann (ann@acme.io).').waitFor();
    const tokens = page.getByRole('list', { name: 'API tokens' });
    // The bootstrap's token, made through the API.
    await tokens.getByRole('listitem').filter({ hasText: 'bootstrap' }).waitFor();
    expect(await tokens.getByRole('listitem').count()).toBe(1);

    // A token, with markup in its label shown as text: its value shown once, focused, copied.
    await page.getByLabel('Token label').fill('CI <b>');
    await page.getByRole('button', { name: 'Create a token' }).click();
    const heading = page.getByRole('heading', { name: 'New token “CI <b>”' });
    await heading.waitFor();
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    await page.getByText('Copy it now: it is shown only this once.').waitFor();
    const token = await page.getByLabel('Token', { exact: true }).inputValue();
    expect(token.length).toBeGreaterThan(20);
    expect(await status(token)).toBe(200);
    await page.getByRole('button', { name: 'Copy the token' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await tokens.getByRole('listitem').filter({ hasText: 'CI <b>' }).getByText('never used').waitFor();
    expect(await axe(page)).toEqual([]);
    expect(violations).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-account-token.png'), fullPage: true });
    // Never shown again: not after "Done", not after a reload.
    await page.getByRole('button', { name: 'Done, I have copied it' }).click();
    await heading.waitFor({ state: 'detached' });
    await page.reload();
    await tokens.getByRole('listitem').filter({ hasText: 'CI <b>' }).waitFor();
    expect(await page.content()).not.toContain(token);

    // Revoking asks first; "Keep" keeps it (and gives the focus back), confirming revokes it.
    const revoke = page.getByRole('button', { name: 'Revoke the token CI <b>' });
    await revoke.click();
    await page.getByRole('button', { name: 'Keep' }).click();
    expect(await revoke.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await status(token)).toBe(200);
    await revoke.click();
    const confirm = page.getByRole('button', { name: 'Confirm revoke CI <b>' });
    expect(await confirm.evaluate((b) => b === document.activeElement)).toBe(true);
    await confirm.click();
    await page.getByText('Revoked the token “CI <b>”: it no longer works.').waitFor();
    await tokens.getByRole('listitem').filter({ hasText: 'CI <b>' }).waitFor({ state: 'detached' });
    await expect.poll(() => status(token)).toBe(401);
    expect(await status(acme.token)).toBe(200);

    // Both ways between the app's screen and the server-rendered page.
    await page.getByRole('link', { name: 'account page' }).click();
    await page.waitForURL(`${p.url}/account`);
    await page.getByText('Signed in as Ann <ann@acme.io>.').waitFor();
    await page.getByRole('link', { name: 'signed-in sessions' }).click();
    await page.waitForURL(`${p.url}/account/sessions`);

    // The sessions: this browser marked, Firefox signed out from here.
    const list = page.getByRole('list', { name: 'Signed-in sessions' });
    const here = list.getByRole('listitem').filter({ hasText: 'This browser' });
    const there = list.getByRole('listitem').filter({ hasText: 'Firefox on Linux' });
    await there.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    expect(await here.count()).toBe(1);
    expect(await there.getByText('This browser').count()).toBe(0);
    expect(await there.textContent()).toMatch(/Signed in .+, last active .+, ends by /);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-account-sessions.png'), fullPage: true });
    expect(await cookieStatus(firefox)).toBe(200);
    await there.getByRole('button', { name: /^Sign out Firefox on Linux, signed in / }).click();
    await page.getByRole('button', { name: 'Confirm sign out Firefox on Linux' }).click();
    await page.getByText(/^Signed out Firefox on Linux, signed in /).waitFor();
    await there.waitFor({ state: 'detached' });
    expect(await cookieStatus(firefox)).toBe(401);
    await page.getByText('You are signed in in this browser only.').waitFor();

    // At 375 px, light then dark.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'quire-app-account-375-light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('link', { name: 'API tokens' }).click();
    await tokens.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-account-375-dark.png'), fullPage: true });
    await page.getByRole('link', { name: 'Signed-in sessions' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    expect(violations).toEqual([]);

    // Signing this browser out, with the keyboard: the session ends and the app goes to the sign-in page.
    const cookie = await sessions.cookie('ann@acme.io');
    expect(await cookieStatus(cookie)).toBe(200);
    await page.getByRole('button', { name: 'Sign out this browser' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Confirm sign out of this browser');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/login$/);
    expect(await cookieStatus(cookie)).toBe(401);
    await page.close();
  });
});
