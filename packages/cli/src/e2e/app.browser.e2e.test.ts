import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, dragRowOver, hasChromium, useChromium } from './browser.ts';
import { sessionCookie, useMailedInstance, watchPage } from './mailbox.ts';

// The writers' app (app/, docs/app.md): served by the gateway at every urls.app, talking to /v1 with the
// sign-in session cookie and the CSRF header.
/** Where the screenshots go: QUIRE_SCREENSHOTS, else the system's temporary directory. */
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

/** Ann's instance, her session (one sign-in for the file) and her signed-in browser pages. */
const { p, acme, mailbox, sessions } = useMailedInstance();

describe('the app on the gateway and its session-cookie calls to /v1', () => {
  let cookie: string;
  let csrf: string;
  beforeAll(async () => {
    cookie = await sessions.cookie('ann@acme.io');
  });

  it('answers every urls.app with the app (sign-in first without a session), under a strict CSP', async () => {
    const space = (await p.client(acme.token).orgs.createSpace(acme.organization.id, { title: 'Ops' })).data;
    const appPath = new URL(space.urls.app).pathname;
    const anonymous = await fetch(`${p.url}${appPath}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/login?next=${encodeURIComponent(appPath)}`);
    expect((await fetch(`${p.url}/`, { redirect: 'manual' })).headers.get('location')).toBe('/login?next=%2F');

    const org = `/o/${acme.organization.id}`;
    for (const path of [appPath, org, `${org}/trash`, `${appPath}/~/changes/1`, '/']) {
      const res = await fetch(`${p.url}${path}`, { headers: { cookie } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      const html = await res.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
      csrf = html.match(/<meta name="quire-csrf" content="([^"]+)">/)![1]!;
    }
    const script = (await (await fetch(`${p.url}/`, { headers: { cookie } })).text()).match(/src="([^"]+\.js)"/)![1]!;
    const asset = await fetch(`${p.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${p.url}/_quire/app/assets/nope.js`)).status).toBe(404);
  });

  it('runs /v1 calls as the session user, with the CSRF header required on writes', async () => {
    const me = await fetch(`${p.url}/v1/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe('ann@acme.io');
    const create = (headers: Record<string, string>) =>
      fetch(`${p.url}/v1/orgs/${acme.organization.id}/spaces`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ title: 'By cookie' }),
      });
    const without = await create({});
    expect(without.status).toBe(403);
    expect((await without.json()).error.message).toContain('X-Quire-CSRF');
    expect((await create({ 'x-quire-csrf': 'x'.repeat(csrf.length) })).status).toBe(403);
    const made = await create({ 'x-quire-csrf': csrf });
    expect(made.status).toBe(201);
    expect((await made.json()).title).toBe('By cookie');
    // A bearer token is read as before, whatever the cookie says.
    const bearer = await fetch(`${p.url}/v1/user`, {
      headers: { cookie: 'quire_session=forged', authorization: `Bearer ${acme.token}` },
    });
    expect(bearer.status).toBe(200);
    expect((await fetch(`${p.url}/v1/user`, { headers: { cookie: 'quire_session=forged' } })).status).toBe(401);
  });

  it('refuses the cookie once its session is signed out', async () => {
    const other = await sessionCookie(p.url, mailbox, 'ann@acme.io');
    const html = await (await fetch(`${p.url}/`, { headers: { cookie: other } })).text();
    const token = html.match(/<meta name="quire-csrf" content="([^"]+)">/)![1]!;
    const out = await fetch(`${p.url}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: other, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: token }).toString(),
    });
    expect(out.status).toBe(303);
    expect((await fetch(`${p.url}/v1/user`, { headers: { cookie: other } })).status).toBe(401);
    expect(
      (await fetch(`${p.url}/o/${acme.organization.id}`, { headers: { cookie: other }, redirect: 'manual' })).status,
    ).toBe(303);
  });
});

describe.skipIf(!hasChromium)('a writer in the app, in Chromium', () => {
  const browser = useChromium();

  it('signs in by e-mail, creates a space, adds pages, merges them and finds one', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const seen = await watchPage(page);
    const orgPath = `/o/${acme.organization.id}`;
    await p.client(acme.token).orgs.createSpace(acme.organization.id, { title: 'Drafts' });
    await page.goto(`${p.url}${orgPath}`);
    await page.waitForURL(`${p.url}/login?next=${encodeURIComponent(orgPath)}`);
    await page.getByLabel('E-mail address').fill('ann@acme.io');
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();
    await page.goto(await mailbox.linkFor('ann@acme.io', '/login/verify', p.url));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${p.url}${orgPath}`);
    await page.getByRole('heading', { name: 'Acme', level: 1 }).waitFor();
    expect(await axe(page)).toEqual([]);

    // A collection, then a space in it.
    await page.getByLabel('What').selectOption('collection');
    await page.getByLabel('Title').fill('Guides');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'Guides' }).waitFor();
    // A collection's screen links to its settings.
    await page.getByRole('link', { name: 'Guides' }).click();
    await page.getByRole('link', { name: 'Settings of Guides' }).click();
    await page.getByRole('heading', { name: 'Settings of Guides', level: 1 }).waitFor();
    await page.goto(`${p.url}${orgPath}`);
    await page.getByLabel('What').selectOption('space');
    await page.getByLabel('Title').fill('Handbook');
    await page.getByLabel('In', { exact: true }).selectOption({ label: 'Guides' });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'Handbook' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'quire-app-organization.png') });

    // Rename and delete a space; after a reload, restore it from the Trash.
    await page.getByRole('button', { name: 'Rename Drafts' }).click();
    await page.getByLabel('New title of Drafts').fill('Old drafts');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Old drafts' }).waitFor();
    await page.getByRole('button', { name: 'Delete Old drafts' }).click();
    await page.getByRole('button', { name: 'Confirm delete Old drafts' }).click();
    await page.getByRole('status').getByText('Old drafts is in the trash').waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'Handbook' }).waitFor();
    expect(await page.getByRole('link', { name: 'Old drafts' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Trash', exact: true }).click();
    await page.waitForURL(`${p.url}${orgPath}/trash`);
    await page.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
    const trashed = page.getByRole('listitem').filter({ hasText: 'Old drafts' });
    await trashed.getByText(/Deleted .+ by Ann · 7 days left/).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-trash.png') });
    await page.getByRole('button', { name: 'Restore Old drafts' }).click();
    await page.getByRole('status').getByText('Restored Old drafts').waitFor();
    await page.getByText('The trash is empty').waitFor();
    await page.getByRole('link', { name: 'Acme', exact: true }).click();
    await page.getByRole('link', { name: 'Old drafts' }).waitFor();
    // Drag and drop a space into a collection.
    const row = (name: string) => page.locator('.row', { has: page.getByRole('link', { name, exact: true }) });
    await row('Old drafts').dragTo(row('Guides'));
    await page.locator('.tree li li a', { hasText: 'Old drafts' }).waitFor();

    // Pages: the first one opens a change request; the second goes into it; merging brings them to main.
    await page.getByRole('link', { name: 'Handbook' }).click();
    await page.getByRole('heading', { name: 'Handbook' }).waitFor();
    await page.getByLabel('Page title').fill('Welcome');
    await page
      .getByLabel('Content (markdown)')
      .fill('Hello **writers**.\n\n- one\n- two\n\n{% hint style="info" %}\nRead me first.\n{% endhint %}\n');
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.waitForURL(/\/~\/changes\/\d+/);
    await page.getByRole('link', { name: 'Welcome' }).waitFor();
    await page.getByLabel('Page title').fill('Setup');
    await page.getByLabel('Content (markdown)').fill('Install the **quire** command.');
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByRole('link', { name: 'Setup' }).waitFor();
    await page.getByRole('link', { name: 'Welcome' }).click();
    await page.getByText('writers').first().waitFor();
    expect(await page.locator('article strong').first().textContent()).toBe('writers');
    // the page as the published site renders it: the hint is a note, its style's label first
    expect(await page.getByRole('note').textContent()).toBe('InfoRead me first.');
    expect(await axe(page)).toEqual([]);
    // Nest and move out with the page menu (the keyboard's way; dragging is tested below).
    await page.getByLabel('Actions on Setup').click();
    await page.getByRole('button', { name: 'Nest under previous' }).click();
    await page.locator('.pages li li a', { hasText: 'Setup' }).waitFor();
    // A page's children show once it is opened (the page moved under opens): its toggle, or → and ← on its link.
    const toggle = page.getByRole('button', { name: 'Pages under Welcome' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.screenshot({ path: join(SHOTS, 'quire-app-tree-open.png') });
    await toggle.click();
    await page.locator('.pages li li a', { hasText: 'Setup' }).waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('link', { name: 'Welcome', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await page.locator('.pages li li a', { hasText: 'Setup' }).waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Setup');
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Welcome');
    expect(await axe(page)).toEqual([]);
    await page.getByLabel('Actions on Setup').click();
    await page.getByRole('button', { name: 'Move out' }).click();
    await page.locator('.pages > li > .row a', { hasText: 'Setup' }).waitFor();
    // Drag and drop: Setup on the upper third of Welcome goes before it (more in "drags pages…" below).
    const pageRow = (name: string) =>
      page.locator('.pages .row', { has: page.getByRole('link', { name, exact: true }) });
    await pageRow('Setup').dragTo(pageRow('Welcome'), { targetPosition: { x: 60, y: 2 } });
    await expect.poll(() => page.locator('.pages a').allTextContents()).toEqual(['Setup', 'Welcome']);
    // An emoji, set and removed; hidden from the navigation and shown again.
    await page.getByLabel('Actions on Setup').click();
    await page.getByRole('button', { name: 'Rename, emoji or icon' }).click();
    await page.getByLabel('Emoji of Setup').fill('🚀');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: '🚀 Setup', exact: true }).waitFor();
    await page.getByLabel('Actions on Setup').click();
    await page.getByRole('button', { name: 'Hide from navigation' }).click();
    await page.getByRole('link', { name: '🚀 Setup (hidden)', exact: true }).waitFor();
    await page.getByLabel('Actions on Setup').click();
    await page.getByRole('button', { name: 'Show in navigation' }).click();
    await page.getByLabel('Actions on Setup').click();
    await page.getByRole('button', { name: 'Rename, emoji or icon' }).click();
    await page.getByLabel('Emoji of Setup').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Setup', exact: true }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-request.png') });
    await page.getByRole('button', { name: /^Merge change request/ }).click();
    await page.waitForURL(/\/s\/[^/]+$/);
    await page.getByRole('link', { name: 'Setup' }).waitFor();
    expect(await page.locator('.pages a').allTextContents()).toEqual(['Setup', 'Welcome']);
    await page.screenshot({ path: join(SHOTS, 'quire-app-space.png') });

    // Quick find: Ctrl-K over the organization's search (indexed from the merge's events, hence the wait).
    await expect
      .poll(
        async () => {
          await page.keyboard.press('Control+k');
          await page.getByLabel('Find in this organization').fill('quire command');
          await page.waitForTimeout(400);
          const found = await page.locator('#palette-results button').count();
          if (!found) await page.keyboard.press('Escape');
          return found;
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/setup$/);
    await page.getByRole('heading', { name: 'Setup', level: 1 }).waitFor();

    expect(seen.violations).toEqual([]);
    expect([...seen.origins]).toEqual([p.url]);
    await page.close();
  });

  it("drags pages (mouse, finger): nests on a row's middle, reorders on its edges, refuses a loop; an icon", {
    timeout: 60_000,
  }, async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Dragging' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Arrange' })).data;
    const pageOf = (title: string) => ({ operation: 'insert_page', title, document: { markdown: `${title}.` } });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: ['Intro', 'Guides', 'Setup', 'FAQ'].map(pageOf),
    } as never);
    /** The tree as the API has it: titles, with children in brackets. */
    const treeOf = async () => {
      type Node = { title: string; pages?: Node[] };
      const draw = (ps: Node[]): string[] =>
        ps.map((n) => (n.pages?.length ? `${n.title} [${draw(n.pages).join(', ')}]` : n.title));
      return draw((await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages as Node[]);
    };
    const { page, violations } = await sessions.open(browser, 'ann@acme.io');
    /** The tree on screen, drawn the same way (a child in brackets is shown: its parent is open). */
    const shown = () =>
      page.locator('.pages').evaluate((ul) => {
        const draw = (list: Element): string[] =>
          Array.from(list.children).map((li) => {
            const title = li.querySelector(':scope > .row a')?.textContent ?? '';
            const sub = li.querySelector(':scope > ul');
            return sub ? `${title} [${draw(sub).join(', ')}]` : title;
          });
        return draw(ul);
      });
    /** The tree through the API and on screen (before the next drag, which presses where rows are drawn). */
    const expectTree = async (tree: string[]) => {
      await expect.poll(treeOf).toEqual(tree);
      await expect.poll(shown).toEqual(tree);
    };
    await page.goto(`${p.url}${new URL(cr.urls.app).pathname}`);
    // the rows are measured once the change request's bar above them is drawn
    await page.getByRole('link', { name: 'FAQ', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Merge change request #1' }).waitFor();
    const row = (name: string) => page.locator('.pages .row', { has: page.getByRole('link', { name, exact: true }) });
    const live = page.locator('.sidebar [aria-live="polite"]');
    /** Presses on a row, moves to `y` (a share of the target row's height) and shows what a drop would do. */
    const dragOver = (from: string, to: string, y: number) => dragRowOver(page, row(from), row(to), y);

    // The middle of a row nests the page as its last child: the row is highlighted, and said.
    await dragOver('Setup', 'Guides', 0.5);
    await expect.poll(() => row('Guides').getAttribute('data-drop')).toBe('inside');
    expect(await row('Setup').getAttribute('data-dragging')).toBe('');
    await expect.poll(() => live.textContent()).toBe('Nest Setup under Guides');
    await page.screenshot({ path: join(SHOTS, 'quire-app-tree-drag.png') });
    await page.mouse.up();
    await expectTree(['Intro', 'Guides [Setup]', 'FAQ']);
    expect(await live.textContent()).toBe('Nested Setup under Guides');
    expect(await page.getByRole('button', { name: 'Pages under Guides' }).getAttribute('aria-expanded')).toBe('true');

    // The lower third puts it after the row, the upper third before it (a line shows where).
    await dragOver('FAQ', 'Intro', 0.9);
    await expect.poll(() => row('Intro').getAttribute('data-drop')).toBe('after');
    await page.mouse.up();
    await expectTree(['Intro', 'FAQ', 'Guides [Setup]']);
    await dragOver('Setup', 'Intro', 0.1);
    await expect.poll(() => row('Intro').getAttribute('data-drop')).toBe('before');
    await page.mouse.up();
    await expectTree(['Setup', 'Intro', 'FAQ', 'Guides']);

    // A page cannot go into its own descendants: the row says no, nothing moves; Escape cancels a drag.
    await dragOver('FAQ', 'Intro', 0.5);
    await page.mouse.up();
    await expectTree(['Setup', 'Intro [FAQ]', 'Guides']);
    await dragOver('Intro', 'FAQ', 0.5);
    await expect.poll(() => row('FAQ').getAttribute('data-drop')).toBe('refused');
    expect(await live.textContent()).toBe('Intro cannot go into itself or its own pages');
    await page.mouse.up();
    expect(await live.textContent()).toBe('Intro cannot go into itself or its own pages: not moved');
    await dragOver('Guides', 'Setup', 0.5);
    await page.keyboard.press('Escape');
    expect(await row('Setup').getAttribute('data-drop')).toBeNull();
    await page.mouse.up();
    expect(await live.textContent()).toBe('Move cancelled');
    // Neither drag moved anything, nor did its end follow the link it was let go over.
    expect(await treeOf()).toEqual(['Setup', 'Intro [FAQ]', 'Guides']);
    expect(await shown()).toEqual(['Setup', 'Intro [FAQ]', 'Guides']);
    expect(new URL(page.url()).pathname).toBe(new URL(cr.urls.app).pathname);
    expect(await axe(page)).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();

    // On a touch screen (375 px), a finger drags a page by its grip: Guides before Setup.
    const phone = await sessions.open(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    await phone.page.goto(`${p.url}${new URL(cr.urls.app).pathname}`);
    await phone.page.getByRole('link', { name: 'Guides', exact: true }).waitFor();
    await phone.page.getByRole('button', { name: 'Merge change request #1' }).waitFor();
    const phoneRow = (name: string) =>
      phone.page.locator('.pages .row', { has: phone.page.getByRole('link', { name, exact: true }) });
    const grip = (await phoneRow('Guides').locator('.grip').boundingBox())!;
    const target = (await phoneRow('Setup').boundingBox())!;
    const cdp = await phone.page.context().newCDPSession(phone.page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const [x0, y0] = [grip.x + grip.width / 2, grip.y + grip.height / 2];
    const [x1, y1] = [target.x + 60, target.y + target.height * 0.1];
    await touch('touchStart', x0, y0);
    for (let i = 1; i <= 5; i++) await touch('touchMove', x0 + ((x1 - x0) * i) / 5, y0 + ((y1 - y0) * i) / 5);
    // (a touch's moves reach the page once a frame: the last one may come a little later)
    await expect.poll(() => phoneRow('Setup').getAttribute('data-drop')).toBe('before');
    await touch('touchEnd', x1, y1);
    await expect.poll(treeOf).toEqual(['Guides', 'Setup', 'Intro [FAQ]']);
    await expect
      .poll(() => phone.page.locator('.pages > li > .row a').allTextContents())
      .toEqual(['Guides', 'Setup', 'Intro']);

    // A page's icon (GitBook's icon name), set in the page menu, is shown in the tree and kept by the API.
    await phone.page.getByLabel('Actions on Guides').click();
    await phone.page.getByRole('button', { name: 'Rename, emoji or icon' }).click();
    await phone.page.getByLabel('Icon of Guides').fill('book');
    await phone.page.getByRole('button', { name: 'Save' }).click();
    // drawn as Font Awesome's icon (the gateway's SVG as a mask of the text colour), silent for screen readers
    const icon = phone.page.getByRole('link', { name: 'Guides', exact: true }).locator('.page-icon');
    await icon.waitFor();
    expect(await icon.evaluate((el) => getComputedStyle(el).maskImage)).toContain('/_quire/icons/book.svg');
    const listed = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages;
    expect(listed.find((pg) => pg.title === 'Guides')).toMatchObject({ icon: 'book' });
    expect(await axe(phone.page)).toEqual([]);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.page.screenshot({ path: join(SHOTS, 'quire-app-tree-375.png') });
    expect(phone.violations).toEqual([]);
    await phone.page.close();
  });

  it('is usable at 375 px, light and dark', { timeout: 60_000 }, async () => {
    const { page } = await sessions.open(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 740 },
      colorScheme: 'dark',
    });
    const spaces = (await p.client(acme.token).orgs.listSpacesInOrganizationById(acme.organization.id)).data.items;
    const handbook = spaces.find((s) => s.title === 'Handbook')!;
    await page.goto(`${p.url}${new URL(handbook.urls.app).pathname}/welcome`);
    await page.getByRole('heading', { name: 'Welcome', level: 1 }).waitFor();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-375-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await axe(page)).toEqual([]);

    // The trash, with a deleted space, at 375 px in both schemes.
    const gone = await p.client(acme.token).orgs.createSpace(acme.organization.id, { title: 'Gone for now' });
    await p.client(acme.token).spaces.deleteSpaceById(gone.data.id);
    await page.goto(`${p.url}/o/${acme.organization.id}/trash`);
    await page.getByRole('button', { name: 'Restore Gone for now' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(page)).toEqual([]);
    await page.close();
  });
});
