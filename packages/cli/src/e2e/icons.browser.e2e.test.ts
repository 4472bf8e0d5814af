import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// GitBook's page icons (Font Awesome names) drawn as icons: the app's tree and page title, the published site's
// navigation, page title and the document's icon inline, from the gateway's own SVGs (`/_quire/icons/{name}.svg`).
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, sessions } = useMailedInstance();

/** How an icon box is drawn: its mask's image and its fill, and the colour of the text around it. */
const drawn = (icon: Locator) =>
  icon.evaluate((el) => {
    const s = getComputedStyle(el);
    const around = getComputedStyle(el.parentElement!);
    return {
      mask: s.maskImage || s.getPropertyValue('-webkit-mask-image'),
      fill: s.backgroundColor,
      text: around.color,
      size: [el.getBoundingClientRect().width > 8, el.getBoundingClientRect().height > 8],
      hidden: el.getAttribute('aria-hidden'),
    };
  });

async function checkScreen(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `quire-icons-${name}-light.png`) });
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `quire-icons-${name}-dark.png`) });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!hasChromium)('page icons, in the app and on the published site', () => {
  const browser = useChromium();

  it('draws a known icon name in the text colour, light and dark, at 375 px; an unknown one not at all', {
    timeout: 180_000,
  }, async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const space = (await api.orgs.createSpace(org, { title: 'Icons' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Pages with icons' })).data;
    const page = (ref: string, title: string, icon: string, markdown: string) => ({
      operation: 'insert_page',
      ref,
      title,
      icon,
      document: { markdown },
    });
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        page(
          'guides',
          'Guides',
          'book-open',
          'Read on <i class="fa-rocket">:rocket:</i> and <i class="fa-nope-nope">:nope-nope:</i> here.\n',
        ),
        page('odd', 'Odd', 'no-such-icon-at-all', 'An icon name Font Awesome does not have.\n'),
      ],
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    const site = (await api.orgs.createSite(org, { title: 'Icon Docs' } as never)).data;
    await api.orgs.addSectionToSite(org, site.id, { spaceId: space.id, title: 'Docs' } as never);
    const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published?: string } };
    const home = published.urls.published!.replace('http://quire.test', p.url);

    // The SVG is the gateway's, cached a year; an unknown name is a 404.
    const svg = await fetch(`${p.url}/_quire/icons/book-open.svg`);
    expect([svg.status, svg.headers.get('content-type'), svg.headers.get('cache-control')]).toEqual([
      200,
      'image/svg+xml',
      'public, max-age=31536000, immutable',
    ]);
    expect((await fetch(`${p.url}/_quire/icons/no-such-icon-at-all.svg`)).status).toBe(404);

    // The app: the tree and the page title.
    const { page: app, violations } = await sessions.open(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 740 },
    });
    await app.goto(`${p.url}/o/${org}/s/${space.id}/guides`);
    await app.getByRole('heading', { name: 'Guides', level: 1 }).waitFor();
    const treeIcon = app.locator('.row a', { hasText: 'Guides' }).locator('.page-icon');
    await treeIcon.waitFor();
    // the icon says nothing to a screen reader: the link's name is the title
    await app.getByRole('link', { name: 'Guides', exact: true }).waitFor();
    for (const icon of [treeIcon, app.getByRole('heading', { name: 'Guides', level: 1 }).locator('.page-icon')]) {
      await icon.waitFor();
      const light = await drawn(icon);
      expect(light).toMatchObject({ size: [true, true], hidden: 'true' });
      expect(light.mask).toContain('/_quire/icons/book-open.svg');
      expect(light.fill).toBe(light.text);
    }
    await app.waitForLoadState('networkidle');
    expect(await app.locator('.row a', { hasText: 'Odd' }).locator('.page-icon').count()).toBe(0);
    // the page's icon inline, as the site draws it: the known one, and nothing for the unknown one
    const appInline = app.locator('.site-article').getByRole('img', { name: 'rocket' });
    expect((await drawn(appInline)).mask).toContain('/_quire/icons/rocket.svg');
    await expect.poll(() => app.locator('.site-article .inline-icon').count()).toBe(1);
    await app.emulateMedia({ colorScheme: 'dark' });
    const dark = await drawn(treeIcon);
    expect(dark.fill).toBe(dark.text);
    await app.emulateMedia({ colorScheme: 'light' });
    expect(dark.fill).not.toBe((await drawn(treeIcon)).fill);
    await checkScreen(app, 'app');
    expect(violations).toEqual([]);

    // The published site: the navigation, the page title and the document's icon inline.
    // (at 1280 px, where the navigation is in sight; then at 375 px)
    const reader = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await reader.goto(`${home}/guides`);
    await reader.getByRole('heading', { name: 'Guides', level: 1 }).waitFor();
    const navIcon = reader.locator('nav a', { hasText: 'Guides' }).first().locator('.page-icon');
    const titleIcon = reader.getByRole('heading', { name: 'Guides', level: 1 }).locator('.page-icon');
    for (const icon of [navIcon, titleIcon]) {
      const light = await drawn(icon);
      expect(light).toMatchObject({ size: [true, true], hidden: 'true' });
      expect(light.mask).toContain('/_quire/icons/book-open.svg');
      expect(light.fill).toBe(light.text);
    }
    const inline = reader.getByRole('img', { name: 'rocket' });
    expect((await drawn(inline)).mask).toContain('/_quire/icons/rocket.svg');
    expect(await reader.locator('.document').textContent()).toContain('Read on  and  here.');
    expect(await reader.locator('.inline-icon').count()).toBe(1);
    expect(await reader.locator('nav a', { hasText: 'Odd' }).first().locator('.page-icon').count()).toBe(0);
    await reader.emulateMedia({ colorScheme: 'dark' });
    const darkNav = await drawn(titleIcon);
    expect(darkNav.fill).toBe(darkNav.text);
    await reader.emulateMedia({ colorScheme: 'light' });
    await reader.screenshot({ path: join(SHOTS, 'quire-icons-site-1280.png') });
    await reader.setViewportSize({ width: 375, height: 740 });
    expect((await drawn(titleIcon)).size).toEqual([true, true]);
    await checkScreen(reader, 'site');
    await reader.goto(`${home}/odd`);
    await reader.getByRole('heading', { name: 'Odd', level: 1 }).waitFor();
    expect(await reader.locator('.page-icon').count()).toBe(1); // Guides's, in the navigation
    await reader.close();
    await app.close();
  });
});
