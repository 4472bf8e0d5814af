import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// A site's privacy policy link (SiteCustomization.tsx) and a site space's remaining overrides (colours, style,
// colour mode, logos, page settings: SiteSpaceOverrideFields.tsx), set in the app, read through the API, seen on
// the published space's pages where the published renderer draws them.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const instance = useMailedInstance();
const { p, acme, signedIn } = instance;
const v1 = (method: string, path: string, body?: unknown) => instance.v1(acme.token, method, path, body);

/** A published site of two spaces, each with one page: the site and its published address on this instance. */
async function siteOfTwoSpaces() {
  const org = acme.organization.id;
  const site = await v1('POST', `/orgs/${org}/sites`, { title: 'Field guide' });
  for (const [title, page] of [
    ['Guide', 'Start'],
    ['Extras <b>', 'Tips'],
  ] as const) {
    const space = (await v1('POST', `/orgs/${org}/spaces`, { title })).id as string;
    await v1('PATCH', `/spaces/${space}`, { mergeRules: { type: 'none' } });
    const cr = await instance.changeRequest(space, 'First page', [
      { operation: 'insert_page', title: page, document: { markdown: `The ${page} page.\n` } },
    ]);
    await v1('POST', `/spaces/${space}/change-requests/${cr.id}/merge`);
    await v1('POST', `/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: space });
  }
  await v1('POST', `/orgs/${org}/sites/${site.id}/publish`);
  const published = `${p.url}${new URL((await v1('GET', `/orgs/${org}/sites/${site.id}`)).urls.published).pathname}`;
  const siteSpaces = (await v1('GET', `/orgs/${org}/sites/${site.id}/site-spaces`)).items as {
    id: string;
    title: string;
    path: string;
  }[];
  return { site, published, siteSpaces };
}

/**
 * The page at 375 px and 1280 px, light and dark: no horizontal scrolling, axe-core clean, screenshots (the page and
 * `part` of it).
 */
async function shots(page: Page, name: string, part: Locator) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
      await part.screenshot({ path: join(SHOTS, `${name}-form-${width}-${scheme}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axe(page)).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!hasChromium)("a site's privacy policy and a site space's remaining overrides, in Chromium", () => {
  const browser = useChromium();

  it("sets the privacy policy and a space's tint, corners, mode, logo, trademark; the API and the pages follow", {
    timeout: 240_000,
  }, async () => {
    const org = acme.organization.id;
    const { site, published, siteSpaces } = await siteOfTwoSpaces();
    const extras = siteSpaces.find((s) => s.title === 'Extras <b>')!;
    const customization = () => v1('GET', `/orgs/${org}/sites/${site.id}/customization`);
    const own = () => v1('GET', `/orgs/${org}/sites/${site.id}/site-spaces/${extras.id}/customization`);
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Field guide', level: 1 }).waitFor();

    // The site's privacy policy: saved, read back.
    const privacy = page.getByLabel('Privacy policy (its URL; empty: none)');
    await privacy.fill('https://acme.example/privacy?a=1&b=<2>');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();
    expect((await customization()).privacyPolicy).toEqual({ url: 'https://acme.example/privacy?a=1&b=<2>' });

    // The space's own tint, corners, colour mode, header logo, trademark and privacy policy.
    await page.getByLabel('Space of the site').selectOption({ label: 'Extras <b>' });
    const form = page.getByRole('form', { name: 'The look of Extras <b>' });
    await form.getByLabel('Own tint').check();
    await form.getByLabel('Tint of Extras <b> in the light theme').fill('#22aa55');
    await form.getByLabel('Tint of Extras <b> in the dark theme').fill('#115522');
    await form.getByLabel('Own corners').check();
    await form.getByLabel('Corners of Extras <b>').selectOption('circular');
    await form.getByLabel('Own colour mode').check();
    await form.getByLabel('Colour mode of Extras <b>').selectOption('dark');
    await form.getByLabel('Own logo (header)').check();
    await form.getByLabel('Logo (header) of Extras <b> in the light theme').fill('https://acme.example/logo.png');
    await form.getByLabel('Logo (header) of Extras <b> in the dark theme').fill('https://acme.example/logo-dark.png');
    await form.getByLabel('Own trademark').check();
    // It starts from the site's value (shown): turned off for this space.
    const trademark = form.getByLabel('“Published with Quire” in the footer (Extras <b>)');
    expect(await trademark.isChecked()).toBe(true);
    await trademark.uncheck();
    await form.getByLabel('Own privacy policy').check();
    expect(await form.getByLabel('Privacy policy of Extras <b> (a URL)').inputValue()).toBe(
      'https://acme.example/privacy?a=1&b=<2>',
    );
    await form.getByLabel('Privacy policy of Extras <b> (a URL)').fill('https://acme.example/extras-privacy');
    await form.getByLabel('Own code colours').check();
    await form.getByLabel('Code colours of Extras <b> in the dark theme').selectOption('dracula');
    await form.getByRole('button', { name: 'Save the look of Extras <b>' }).click();
    await form.getByText('The look of Extras <b> saved.').waitFor();
    expect(await own()).toMatchObject({
      styling: {
        tint: { color: { light: '#22aa55', dark: '#115522' } },
        corners: 'circular',
        codeTheme: { default: { light: 'default-light', dark: 'dracula' } },
      },
      themes: { default: 'dark' },
      header: { logo: { light: 'https://acme.example/logo.png', dark: 'https://acme.example/logo-dark.png' } },
      trademark: { enabled: false },
      privacyPolicy: { url: 'https://acme.example/extras-privacy' },
    });
    // The site's own customization is unchanged.
    const siteNow = await customization();
    expect([siteNow.styling.corners, siteNow.themes.default, siteNow.trademark.enabled]).toEqual([
      'rounded',
      'light',
      true,
    ]);

    // Read again: the overrides show as such, the others stay off; the site's privacy policy is in its field.
    await page.reload();
    await page.getByRole('heading', { name: 'Field guide', level: 1 }).waitFor();
    expect(await privacy.inputValue()).toBe('https://acme.example/privacy?a=1&b=<2>');
    await page.getByLabel('Space of the site').selectOption({ label: 'Extras <b>' });
    for (const label of ['Own tint', 'Own corners', 'Own colour mode', 'Own logo (header)', 'Own trademark'])
      expect(await form.getByLabel(label).isChecked()).toBe(true);
    for (const label of ['Own depth', 'Own logo (footer)', 'Own pagination', 'Own danger colour'])
      expect(await form.getByLabel(label).isChecked()).toBe(false);
    expect(await form.getByLabel('Tint of Extras <b> in the light theme').inputValue()).toBe('#22aa55');
    expect(await form.getByLabel('Corners of Extras <b>').inputValue()).toBe('circular');
    expect(await form.getByLabel('Colour mode of Extras <b>').inputValue()).toBe('dark');
    expect(await trademark.isChecked()).toBe(false);
    await shots(page, 'B-site-space-overrides', form);

    // The published pages: the space's own tint and no trademark; the site's other space keeps the site's.
    const { page: reader, ...read } = await signedIn(browser, 'ann@acme.io');
    const look = async (path: string) => {
      await reader.goto(`${published}${path ? `/${path}` : ''}?fresh=${Date.now()}`);
      await reader.locator('footer.site-footer').waitFor({ state: 'attached' });
      return reader.evaluate(() => ({
        tint: getComputedStyle(document.documentElement).getPropertyValue('--tint').trim(),
        footer: document.querySelector('footer.site-footer')?.textContent ?? '',
      }));
    };
    const extrasLook = await look(extras.path);
    expect(extrasLook.tint).toBe('#22aa55');
    expect(extrasLook.footer).not.toContain('Published with Quire');
    // The site's home: its first space, Guide.
    const guideLook = await look('');
    expect(guideLook.footer).toContain('Published with Quire');
    expect(guideLook.tint).not.toBe('#22aa55');
    await reader.goto(`${published}/${extras.path}?fresh=${Date.now()}`);
    await reader.setViewportSize({ width: 375, height: 800 });
    await reader.screenshot({ path: join(SHOTS, 'B-site-space-published-375.png'), fullPage: true });
    await reader.close();

    // An override turned off is sent as null: the site's value applies again.
    await form.getByLabel('Own corners').uncheck();
    await form.getByLabel('Own trademark').uncheck();
    await form.getByRole('button', { name: 'Save the look of Extras <b>' }).click();
    await expect
      .poll(async () => {
        const c = await own();
        return [c.styling.corners, c.trademark.enabled, c.themes.default];
      })
      .toEqual(['rounded', true, 'dark']);
    expect(seen.violations).toEqual([]);
    expect(read.violations).toEqual([]);
    await page.close();
  });
});
