import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { acmeAndOther, startPlatform, type Boot, type Platform } from './harness.ts';
import { publishDemoSite, writePages } from './published-sites.fixtures.ts';

/** Screenshots are kept as test artifacts (gitignored). */
const ARTIFACTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../test-artifacts');
/** Where the section group's screenshots are also copied, to be looked at outside the test run. */
const SHOTS = process.env.QUIRE_SHOTS_DIR ?? ARTIFACTS;
describe.skipIf(!hasChromium)('a published site in Chromium', () => {
  let p: Platform;
  let acme: Boot;
  const browser = useChromium();
  let home: string;
  let hostile: string;

  beforeAll(async () => {
    p = await startPlatform();
    ({ acme } = await acmeAndOther(p));
    const api = p.client(acme.token);
    const { site } = await publishDemoSite(api, acme.organization.id);
    // Page feedback on (GitBook's default is off): the pages show "Was this page helpful?".
    await api.orgs.updateSiteCustomizationById(acme.organization.id, site.id, { feedback: { enabled: true } } as never);
    home = site.urls.published!.replace('http://quire.test', p.url);
    // A site whose content tries to run script everywhere a string reaches the page.
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Evil "space" <b>' })).data;
    await writePages(
      api,
      space.id,
      [
        {
          ref: 'x',
          title: '<img src=x onerror="window.__xss=1">',
          description: '"><script>window.__xss=2</script>',
          markdown: [
            '<script>window.__xss=3</script>',
            '',
            '[click me](javascript:window.__xss=4) and [tab](&#x6A;avascript:window.__xss=5)',
            '',
            '![" onerror="window.__xss=6](gitbook-file:diagram)',
            '',
            '<img src=x onerror="window.__xss=7">',
            '',
            '## <svg onload="window.__xss=8">',
          ].join('\n'),
        },
      ],
      true,
    );
    const evil = (
      await api.orgs.createSite(acme.organization.id, {
        title: '</title><script>window.__xss=9</script>',
        spaces: [space.id],
      } as never)
    ).data;
    const published = (await api.orgs.publishSite(acme.organization.id, evil.id)).data as {
      urls: { published?: string };
    };
    hostile = published.urls.published!.replace('http://quire.test', p.url);
    mkdirSync(ARTIFACTS, { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await p?.stop();
  });

  it('reads like docs: sidebar, tabs, prev/next, search and anchors work, nothing is loaded from elsewhere', {
    timeout: 90_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    expect((await page.goto(home))?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Introduction');
    await page.screenshot({ path: join(ARTIFACTS, 'published-site-1280.png'), fullPage: true });
    await page.screenshot({ path: join(ARTIFACTS, 'published-site-viewport.png') });
    expect(await axe(page)).toEqual([]);

    // The image loaded (a signed link on this origin) at its size.
    const size = await page
      .locator('figure.image img')
      .evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth]);
    expect(size).toEqual([true, 320]);

    // The sidebar: a nested page becomes the current one.
    await page.locator('.pages a', { hasText: 'Installation' }).click();
    await page.waitForURL(/\/getting-started\/installation$/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Installation');
    await expect(page.locator('.pages a[aria-current="page"]').textContent()).resolves.toBe('Installation');

    // Next, then previous.
    await page.locator('.prev-next a[rel="next"]').click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Configuration');
    await page.locator('.prev-next a[rel="prev"]').click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Installation');

    // An anchor of another page, from the text of the first one.
    await page.goto(home);
    await page.locator('.document a', { hasText: 'configuration reference' }).click();
    await page.waitForURL(/\/getting-started\/configuration#options$/);
    expect(await page.locator('#options').evaluate((h) => h.getBoundingClientRect().top < window.innerHeight)).toBe(
      true,
    );

    // Search from the box in the header.
    await page.fill('#site-search', 'latency');
    await page.press('#site-search', 'Enter');
    await page.waitForURL(/~search\?q=latency/);
    await page.locator('.search-results a', { hasText: 'Introduction' }).first().click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Introduction');

    // The other section.
    await page.locator('.sections a', { hasText: 'API Reference' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('API overview');
    expect(await axe(page)).toEqual([]);

    // Tabs work without script: the second tab's label shows its panel.
    await page.goto(home);
    const yarn = page.locator('.tab-panel', { hasText: 'yarn add @acme/cloud' });
    await expect(yarn.isVisible()).resolves.toBe(false);
    await page.locator('label.tab-label', { hasText: 'yarn' }).click({ timeout: 5_000 });
    await expect(yarn.isVisible()).resolves.toBe(true);

    const origin = new URL(p.url).origin;
    expect(requested.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin)).toEqual([]);
    await page.close();
  });

  it('votes "Was this page helpful?" by keyboard (a plain form post), and thanks', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    expect((await page.goto(home))?.status()).toBe(200);
    const form = page.getByRole('group', { name: 'Was this page helpful?' });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'published-site-rating-375.png') });
    expect(await axe(page)).toEqual([]);
    await form.getByRole('button', { name: 'Yes' }).focus();
    await page.keyboard.press('Enter');
    // The post navigates: wait for the page it answers with, not the load state of the page it leaves.
    await page.locator('h1', { hasText: 'Thank you' }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to the page' }).click();
    await page.locator('h1', { hasText: 'Introduction' }).waitFor();
    await page.close();
  });

  it('fits a 375 px phone: the sidebar folds behind Menu, no horizontal scroll', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(`${home}/getting-started/configuration`);
    await expect(page.locator('.sidebar').isVisible()).resolves.toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(ARTIFACTS, 'published-site-375.png'), fullPage: true });
    // Keyboard: the skip link comes first and moves focus to the content.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('content');
    await page.locator('label.nav-toggle-label').click();
    await expect(page.locator('.sidebar').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'published-site-375-menu.png') });
    expect(await axe(page)).toEqual([]);
    await page.close();
  });

  it('opens a section group from its tab without script, by mouse and keyboard, and shows the site icon', {
    timeout: 120_000,
  }, async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const { site } = await publishDemoSite(api, org, 'Grouped Site');
    const changelog = (await api.orgs.createSpace(org, { title: 'Changelog' })).data;
    await writePages(api, changelog.id, [{ ref: 'r', title: 'Releases', markdown: 'Version 2 is out.\n' }]);
    const sections = (await api.orgs.listSiteSections(org, site.id)).data.items;
    const reference = sections.find((s) => s.title === 'API Reference')!;
    const group = (await api.orgs.addSectionGroupToSite(org, site.id, { title: 'Reference', sections: [reference.id] }))
      .data;
    await api.orgs.addSectionToSite(org, site.id, {
      spaceId: changelog.id,
      title: 'Changelog',
      siteSectionGroupId: group.id,
    } as never);
    await api.orgs.updateSiteCustomizationById(org, site.id, {
      title: 'Acme Grouped',
      favicon: { emoji: '🚀' },
      styling: { primaryColor: { light: '#0B6E4F', dark: '#6FD3A8' } },
    } as never);
    const url = site.urls.published!.replace('http://quire.test', p.url);
    const shots = [ARTIFACTS, SHOTS];

    // Without JavaScript: the group's tab opens its menu, a section of it opens, and its tab is then the current one.
    const noScript = await browser.newPage({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    await noScript.goto(url);
    const menu = noScript.locator('.section-group .group-menu');
    await expect(menu.isVisible()).resolves.toBe(false);
    await noScript.locator('.section-group summary').click();
    await expect(menu.isVisible()).resolves.toBe(true);
    await noScript.locator('.group-menu a', { hasText: 'Changelog' }).click();
    await noScript.waitForURL(/\/changelog$/);
    await expect(noScript.locator('h1').textContent()).resolves.toBe('Releases');
    await expect(noScript.locator('.section-group.current summary').textContent()).resolves.toBe('Reference (current)');
    await noScript.close();

    // With the keyboard at 1280 px: Tab reaches the group's summary, Enter opens it, Tab goes into its menu.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await expect(page.locator('.site-title .site-logo-emoji').textContent()).resolves.toBe('🚀');
    await expect(page.locator('.site-title').textContent()).resolves.toContain('Acme Grouped');
    expect(await page.title()).toBe('Introduction | Acme Grouped');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent'));
    expect(accent.trim()).toBe('#0B6E4F');
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.tagName === 'SUMMARY')) break;
    }
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Reference');
    await page.keyboard.press('Enter');
    await expect(page.locator('.section-group .group-menu').isVisible()).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('API Reference');
    for (const dir of shots)
      await page.screenshot({
        path: join(dir, 'section-group-1280.png'),
        clip: { x: 0, y: 0, width: 1280, height: 320 },
      });
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(page.locator('h1').textContent()).resolves.toBe('API overview');
    await page.close();

    // At 375 px: the tabs wrap, the menu fits the screen, nothing scrolls sideways.
    const phone = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await phone.goto(url);
    await phone.locator('.section-group summary').click();
    const box = await phone.locator('.section-group .group-menu').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const dir of shots)
      await phone.screenshot({
        path: join(dir, 'section-group-375.png'),
        clip: { x: 0, y: 0, width: 375, height: 420 },
      });
    expect(await axe(phone)).toEqual([]);
    await phone.locator('.group-menu a', { hasText: 'Changelog' }).click();
    await expect(phone.locator('h1').textContent()).resolves.toBe('Releases');
    await phone.close();
  });

  it('follows the dark colour scheme', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    await page.goto(home);
    const [bg, code] = await page.evaluate(() => [
      getComputedStyle(document.body).backgroundColor,
      getComputedStyle(document.querySelector('pre.shiki')!).backgroundColor,
    ]);
    expect(bg).toBe('rgb(13, 17, 23)');
    expect(code).toBe('rgb(36, 41, 46)');
    await page.screenshot({ path: join(ARTIFACTS, 'published-site-dark.png') });
    expect(await axe(page)).toEqual([]);
    await page.close();
  });

  it('never runs script from titles, descriptions, markdown, link URLs or alt text', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    expect((await page.goto(hostile))?.status()).toBe(200);
    // Every link of the document, each clicked on a fresh load of the page (a link that works leaves it: an
    // external image of an HTML block is shown as a link to it).
    const count = await page.locator('.document a').count();
    expect(count).toBeGreaterThan(0);
    // Each link is clicked in a page of its own: a link that works starts a navigation, which must not race the
    // next load of the hostile page.
    for (let i = 0; i < count; i++) {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      tab.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await tab.goto(hostile);
      const link = tab.locator('.document a').nth(i);
      const href = (await link.getAttribute('href')) ?? '';
      expect(href.toLowerCase()).not.toContain('javascript:');
      await link.click({ noWaitAfter: true, timeout: 5_000 }).catch(() => {});
      await tab.waitForTimeout(100);
      expect(
        await tab.evaluate(() => (window as unknown as { __xss?: number }).__xss).catch(() => undefined),
      ).toBeUndefined();
      await tab.close();
    }
    await page.goto(hostile);
    await page.waitForTimeout(200);
    const xss = () => page.evaluate(() => (window as unknown as { __xss?: number }).__xss);
    expect(await xss()).toBeUndefined();
    expect(dialogs).toEqual([]);
    await expect(page.locator('h1').textContent()).resolves.toBe('<img src=x onerror="window.__xss=1">');
    expect(await page.title()).toContain('</title><script>');
    // A search query and a claim in the URL are text too.
    const query = '"><script>window.__xss=10</script>';
    await page.goto(
      `${hostile}/~search?q=${encodeURIComponent(query)}&visitor.x=%3Cscript%3Ewindow.__xss%3D11%3C%2Fscript%3E`,
    );
    await expect(page.locator('#site-search').inputValue()).resolves.toBe(query);
    await page.waitForTimeout(200);
    expect(await xss()).toBeUndefined();
    expect(dialogs).toEqual([]);
    await page.close();
  });
});
