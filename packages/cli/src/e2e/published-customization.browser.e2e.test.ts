import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, png, useChromium } from './browser.ts';
import { PUBLIC_URL, useMailedInstance } from './mailbox.ts';

// The customization drawn by the published pages (services/sites render/look.ts, theme.ts): the header and footer
// logos, the privacy policy's link, the colour mode and the corners, as a reader sees them in Chromium.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const instance = useMailedInstance();
const { p, acme } = instance;
const v1 = (method: string, path: string, body?: unknown) => instance.v1(acme.token, method, path, body);

/** The logos, as the instance would serve them on its own origin (light: dark ink; dark: light ink). */
const LOGOS: Record<string, Buffer> = {
  'logo-light.png': png(160, 32, [12, 45, 107], [255, 255, 255], [5, 80, 174], [255, 255, 255]),
  'logo-dark.png': png(160, 32, [121, 192, 255], [13, 17, 23], [230, 237, 243], [13, 17, 23]),
};

async function serveLogos(page: Page) {
  await page.route('**/v1/quire-test/*.png', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    const body = LOGOS[name];
    return body ? route.fulfill({ status: 200, contentType: 'image/png', body }) : route.fulfill({ status: 404 });
  });
}

describe.skipIf(!hasChromium)('the customization on a published page, in Chromium', () => {
  const browser = useChromium();

  it('shows the logos and the privacy link at 375 px and wide, light and dark; one mode when readers may not switch', {
    timeout: 180_000,
  }, async () => {
    const org = acme.organization.id;
    const site = await v1('POST', `/orgs/${org}/sites`, { title: 'Acme <Docs>' });
    const space = (await v1('POST', `/orgs/${org}/spaces`, { title: 'Guide' })).id as string;
    await v1('PATCH', `/spaces/${space}`, { mergeRules: { type: 'none' } });
    const cr = await instance.changeRequest(space, 'Pages', [
      {
        operation: 'insert_page',
        title: 'Start',
        document: {
          markdown:
            'The start page.\n\n```js\nconst a = 1;\n```\n\n{% hint style="info" %}\nA note.\n{% endhint %}\n\n{% hint style="danger" %}\nA warning.\n{% endhint %}\n',
        },
      },
      { operation: 'insert_page', title: 'Next steps', document: { markdown: 'Then this.\n' } },
    ]);
    await v1('POST', `/spaces/${space}/change-requests/${cr.id}/merge`);
    await v1('POST', `/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: space });
    await v1('POST', `/orgs/${org}/sites/${site.id}/publish`);
    const published = `${p.url}${new URL((await v1('GET', `/orgs/${org}/sites/${site.id}`)).urls.published).pathname}`;
    const logo = {
      light: `${PUBLIC_URL}/v1/quire-test/logo-light.png`,
      dark: `${PUBLIC_URL}/v1/quire-test/logo-dark.png`,
    };
    const customize = (body: Record<string, unknown>) =>
      v1('PUT', `/orgs/${org}/sites/${site.id}/customization`, {
        header: { logo },
        footer: { logo, copyright: '© Acme' },
        privacyPolicy: { url: 'https://acme.example/privacy' },
        ...body,
      });
    await customize({});

    const page = await browser.newPage();
    await serveLogos(page);
    const open = async () => {
      const res = await page.goto(`${published}?fresh=${Date.now()}`);
      expect(res?.status()).toBe(200);
    };
    await open();
    // The logo is the title's link (its alt the site's title), the privacy policy a link of the footer.
    const title = page.getByRole('link', { name: 'Acme <Docs>' }).first();
    await expect(title.getByRole('img', { name: 'Acme <Docs>' }).isVisible()).resolves.toBe(true);
    const privacy = page.locator('footer').getByRole('link', { name: 'Privacy policy' });
    await expect(privacy.getAttribute('href')).resolves.toBe('https://acme.example/privacy');
    const src = () => page.locator('header img.logo').evaluate((img) => (img as HTMLImageElement).currentSrc);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(src).toContain(`logo-${scheme}.png`);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: join(SHOTS, `D-logo-privacy-${width}-${scheme}.png`), fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await axe(page)).toEqual([]);
      }
    }

    // Light only, straight corners, the info and danger colours set (a yellow and a pink too light to read on white:
    // darkened for the hints' labels, axe checks their contrast): a reader whose system is dark still gets the light
    // page and logo.
    const hintColour = () =>
      page
        .locator('.hint')
        .first()
        .evaluate((e) => getComputedStyle(e).getPropertyValue('--hint-bg'));
    const defaultInfoBg = await hintColour();
    await customize({
      themes: { default: 'light', toggeable: false },
      styling: {
        corners: 'straight',
        infoColor: { light: '#ffeb3b', dark: '#ffeb3b' },
        dangerColor: { light: '#ff8a80', dark: '#ff8a80' },
      },
    });
    await open();
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
      .toBe('rgb(255, 255, 255)');
    await expect.poll(src).toContain('logo-light.png');
    expect(await page.locator('.search-form input').evaluate((e) => getComputedStyle(e).borderRadius)).toBe('0px');
    await expect.poll(hintColour).not.toBe(defaultInfoBg);
    expect(await hintColour()).toBe('#fffde7');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'D-light-only-375-dark-system.png'), fullPage: true });
    expect(await axe(page)).toEqual([]);

    // Dark only, circular corners: a reader whose system is light gets the dark page and logo.
    await customize({ themes: { default: 'dark', toggeable: false }, styling: { corners: 'circular' } });
    await page.emulateMedia({ colorScheme: 'light' });
    await open();
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
      .toBe('rgb(13, 17, 23)');
    await expect.poll(src).toContain('logo-dark.png');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'D-dark-only-1280-light-system.png'), fullPage: true });
    expect(await axe(page)).toEqual([]);
    await page.close();
  });
});
