import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// A site's fonts, social accounts, AI settings and nested section groups: set in the app, seen on the published site.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();
/** A real WOFF2 file to upload as a custom font (Poppins, from the repository's bundled fonts). */
const FONT_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../node_modules/@fontsource/poppins/files/poppins-latin-400-normal.woff2',
);

/** Its bold face (700). */
const BOLD_FILE = FONT_FILE.replace('-400-', '-700-');

const instance = useMailedInstance();
const { p, acme, signedIn } = instance;
const v1 = (method: string, path: string, body?: unknown) => instance.v1(acme.token, method, path, body);

/** A space with one page (a heading, a paragraph, a code block), merged. */
async function spaceWithPage(title: string) {
  const space = (await v1('POST', `/orgs/${acme.organization.id}/spaces`, { title })).id as string;
  await v1('PATCH', `/spaces/${space}`, { mergeRules: { type: 'none' } });
  const cr = await instance.changeRequest(space, 'First page', [
    {
      operation: 'insert_page',
      title: 'Install',
      document: { markdown: '## Requirements\n\nQuire needs Node.\n\n```bash\nnpm ci && npm start\n```\n' },
    },
  ]);
  await v1('POST', `/spaces/${space}/change-requests/${cr.id}/merge`);
  return space;
}

/**
 * A site publishing one space (made by `spaceWithPage(space)`), published unless `publish` is false: the site, and
 * its published address on this instance (its URL names the instance's public host).
 */
async function siteOfOneSpace(title: string, space: string, { publish = true } = {}) {
  const org = acme.organization.id;
  const site = await v1('POST', `/orgs/${org}/sites`, { title });
  await v1('POST', `/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: await spaceWithPage(space) });
  if (publish) await v1('POST', `/orgs/${org}/sites/${site.id}/publish`);
  const publishedUrl = async () =>
    `${p.url}${new URL((await v1('GET', `/orgs/${org}/sites/${site.id}`)).urls.published).pathname}`;
  return { site, publishedUrl };
}

describe.skipIf(!hasChromium)("a site's fonts, social accounts and AI settings, in Chromium", () => {
  const browser = useChromium();

  it('chooses fonts, social accounts and AI in the app; the published site draws them', {
    timeout: 180_000,
  }, async () => {
    const org = acme.organization.id;
    const { site, publishedUrl } = await siteOfOneSpace('Setup docs', 'Setup', { publish: false });
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Setup docs', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Publish Setup docs', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish Setup docs' }).waitFor();

    // GitBook's defaults are shown as such: Inter, the text font for headings, IBM Plex Mono, no AI.
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).toBe('Inter');
    expect(await page.getByLabel('Headings', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Code', { exact: true }).inputValue()).toBe('IBMPlexMono');
    expect(await page.getByLabel('Greeting').isDisabled()).toBe(true);
    await page.getByLabel('Text', { exact: true }).selectOption({ label: 'Lato' });
    await page.getByLabel('Headings', { exact: true }).selectOption({ label: 'Roboto Slab' });
    await page.getByLabel('Code', { exact: true }).selectOption({ label: 'JetBrains Mono' });
    // Two social accounts: GitHub in the header and the footer, Mastodon in the footer only.
    await page.getByRole('button', { name: 'Add a social account' }).click();
    await page.getByLabel('Handle or URL of social account 1').fill('@acme-docs');
    await page.getByLabel('In the header (social account 1)').check();
    await page.getByRole('button', { name: 'Add a social account' }).click();
    await page.getByLabel('Platform of social account 2').selectOption({ label: 'Mastodon' });
    await page.getByLabel('Handle or URL of social account 2').fill('@acme@fosstodon.org');
    // AI: search, a greeting and one suggestion (the empty ones are left out).
    await page.getByLabel('AI mode').selectOption({ label: 'Search' });
    await page.getByLabel('Greeting').fill('Ask the <docs>');
    await page.getByLabel('Suggested question 1').fill('How do I install?');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();
    const saved = await v1('GET', `/orgs/${org}/sites/${site.id}/customization`);
    expect([saved.styling.font, saved.styling.headingFont, saved.styling.monospaceFont]).toEqual([
      'Lato',
      'RobotoSlab',
      'JetBrainsMono',
    ]);
    expect(saved.socialAccounts).toEqual([
      { platform: 'github', handle: '@acme-docs', display: { header: true, footer: true } },
      { platform: 'mastodon', handle: '@acme@fosstodon.org', display: { header: false, footer: true } },
    ]);
    expect(saved.ai).toEqual({ mode: 'search', greeting: 'Ask the <docs>', suggestions: ['How do I install?'] });
    // Read again, the form shows what was saved.
    await page.reload();
    await page.getByRole('heading', { name: 'Setup docs', level: 1 }).waitFor();
    expect(await page.getByLabel('Headings', { exact: true }).inputValue()).toBe('RobotoSlab');
    expect(await page.getByLabel('Handle or URL of social account 2').inputValue()).toBe('@acme@fosstodon.org');
    expect(await page.getByLabel('Suggested question 1').inputValue()).toBe('How do I install?');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-fonts-social-ai.png'), fullPage: true });

    // The published page at 375 px: the fonts loaded from the instance, the social links named by platform.
    const { page: published, ...reader } = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 800 },
    });
    const siteUrl = await publishedUrl();
    await published.goto(`${siteUrl}/install?fresh=${Date.now()}`);
    await published.getByRole('heading', { name: 'Requirements' }).waitFor();
    const fonts = await published.evaluate(async () => {
      await document.fonts.ready;
      const family = (sel: string) => getComputedStyle(document.querySelector(sel)!).fontFamily;
      return {
        body: family('body'),
        heading: family('main :is(h2, h3)'),
        code: family('main pre'),
        loaded: [...(document.fonts as unknown as Iterable<FontFace>)]
          .filter((f) => f.status === 'loaded')
          .map((f) => f.family.replace(/"/g, '')),
        files: performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => n.includes('/fonts/')),
      };
    });
    expect(fonts.body.startsWith('Lato')).toBe(true);
    expect(fonts.heading.startsWith('"Roboto Slab"')).toBe(true);
    expect(fonts.code.startsWith('"JetBrains Mono"')).toBe(true);
    expect(new Set(fonts.loaded)).toEqual(new Set(['Lato', 'Roboto Slab', 'JetBrains Mono']));
    expect(fonts.files.length).toBeGreaterThan(0);
    for (const f of fonts.files) expect(f.startsWith(`${p.url}/_quire/site/fonts/`), f).toBe(true);
    const header = published.getByRole('navigation', { name: 'Social accounts', exact: true });
    expect(await header.getByRole('link', { name: 'GitHub' }).getAttribute('href')).toBe(
      'https://github.com/acme-docs',
    );
    expect(await header.getByRole('link').count()).toBe(1);
    const footer = published.getByRole('navigation', { name: 'Social accounts (footer)' });
    expect(await footer.getByRole('link', { name: 'Mastodon' }).getAttribute('href')).toBe(
      'https://fosstodon.org/@acme',
    );
    expect(await published.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(published)).toEqual([]);
    await published.screenshot({ path: join(SHOTS, 'quire-site-fonts-social-375-light.png'), fullPage: true });
    await published.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(published)).toEqual([]);
    await published.screenshot({ path: join(SHOTS, 'quire-site-fonts-social-375-dark.png'), fullPage: true });

    // The search page greets and offers the suggestion as a search (escaped text).
    await published.goto(`${siteUrl}/~search`);
    await published.getByText('Ask the <docs>').waitFor();
    await published.getByRole('link', { name: 'How do I install?' }).click();
    await published.getByText(/results? for “How do I install\?”/).waitFor();
    await published.getByRole('link', { name: 'Install' }).first().waitFor();
    expect(await axe(published)).toEqual([]);
    await published.emulateMedia({ colorScheme: 'light' });
    await published.goto(`${siteUrl}/~search`);
    await published.screenshot({ path: join(SHOTS, 'quire-site-search-ai-375-light.png'), fullPage: true });
    expect(reader.violations).toEqual([]);
    expect([...reader.origins]).toEqual([p.url]);
    await published.close();

    // AI back to none: the search page no longer greets.
    await page.getByLabel('AI mode').selectOption({ label: 'None' });
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();
    expect((await v1('GET', `/orgs/${org}/sites/${site.id}/customization`)).ai.mode).toBe('none');
    expect(await page.getByLabel('Greeting').isDisabled()).toBe(true);
    // The form at 375 px, dark: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    const form = page.getByRole('form', { name: 'Customization' });
    await form.getByRole('group', { name: 'Fonts' }).screenshot({ path: join(SHOTS, 'quire-app-fonts-375-dark.png') });
    await form
      .getByRole('group', { name: 'Social accounts' })
      .screenshot({ path: join(SHOTS, 'quire-app-social-375-dark.png') });
    await form
      .getByRole('group', { name: 'AI on the site' })
      .screenshot({ path: join(SHOTS, 'quire-app-ai-375-dark.png') });
    expect(seen.violations).toEqual([]);
    await page.close();
  });

  it('uploads a custom font in the app; the published site draws it from one cached font stylesheet', {
    timeout: 150_000,
  }, async () => {
    const org = acme.organization.id;
    const { site, publishedUrl } = await siteOfOneSpace('Brand docs', 'Branding');
    const siteUrl = await publishedUrl();
    /** A page's bytes, and what they would be with its font stylesheet inlined (as pages were before it was linked). */
    const size = async () => {
      const html = await (await fetch(`${siteUrl}/install?size=${Date.now()}`)).text();
      const link = /<link rel="stylesheet" href="([^"]+\/~fonts\/[0-9a-f]{20}\.css)">/.exec(html)!;
      const css = await (await fetch(`${p.url}${link[1]}`)).text();
      return { page: html.length, inlined: html.length - link[0].length + `<style>${css}</style>`.length };
    };
    const before = await size();

    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Brand docs', level: 1 }).waitFor();
    await page.getByLabel('Font file').setInputFiles(FONT_FILE);
    // The name is guessed from the file's; the writer names it.
    expect(await page.getByLabel('Font name').inputValue()).toBe('Poppins');
    await page.getByLabel('Font name').fill('Acme Brand');
    await page.getByRole('button', { name: 'Upload font' }).click();
    await page.getByText('Uploaded Acme Brand: chosen for the text.').waitFor();
    const text = page.getByLabel('Text', { exact: true });
    expect(await text.locator('option:checked').textContent()).toBe('Acme Brand (custom)');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();
    const saved = await v1('GET', `/orgs/${org}/sites/${site.id}/customization`);
    expect(saved.styling.font).toMatchObject({ custom: true, fontFamily: 'Acme Brand', fontFaces: [{ weight: 400 }] });
    const fonts = await v1('GET', `/orgs/${org}/fonts`);
    expect(fonts.items.map((f: { fontFamily: string }) => f.fontFamily)).toContain('Acme Brand');
    expect(await axe(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page
      .getByRole('form', { name: 'Customization' })
      .getByRole('group', { name: 'Fonts' })
      .screenshot({ path: join(SHOTS, 'quire-app-custom-font-375.png') });
    expect(seen.violations).toEqual([]);
    await page.close();

    // The published page draws its text with the uploaded font, from the instance, through one linked stylesheet.
    const after = await size();
    console.info(
      `a published page, default fonts: ${before.page} B (inlined: ${before.inlined} B); custom font: ${after.page} B (inlined: ${after.inlined} B)`,
    );
    // The default fonts' rules (Inter and IBM Plex Mono) are no longer in every page.
    expect(before.inlined - before.page).toBeGreaterThan(2000);
    const { page: published, ...reader } = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 800 },
    });
    await published.goto(`${siteUrl}/install?fresh=${Date.now()}`);
    await published.getByRole('heading', { name: 'Requirements' }).waitFor();
    const drawn = await published.evaluate(async () => {
      await document.fonts.ready;
      return {
        body: getComputedStyle(document.body).fontFamily,
        loaded: [...(document.fonts as unknown as Iterable<FontFace>)]
          .filter((f) => f.status === 'loaded')
          .map((f) => f.family.replace(/"/g, '')),
        inline: Array.from(document.querySelectorAll('style')).some((s) => s.textContent?.includes('@font-face')),
        sheets: Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')).map((l) => l.href),
        files: performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => n.includes('/_quire/fonts/files/')),
      };
    });
    expect(drawn.body.startsWith('"Acme Brand"')).toBe(true);
    // A wide font keeps the page within the screen (the search field shrinks).
    expect(await published.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(drawn.loaded).toContain('Acme Brand');
    expect(drawn.inline).toBe(false);
    expect(drawn.files).toHaveLength(1);
    const sheet = drawn.sheets.find((h) => /\/~fonts\/[0-9a-f]{20}\.css$/.test(h));
    expect(sheet, 'the page links its font stylesheet').toBeTruthy();
    const res = await fetch(sheet!);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toContain('font-family:"Acme Brand"');
    const file = await fetch(drawn.files[0]!);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'font/woff2']);
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await axe(published)).toEqual([]);
    await published.screenshot({ path: join(SHOTS, 'quire-site-custom-font-375.png'), fullPage: true });
    await published.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(published)).toEqual([]);
    await published.screenshot({ path: join(SHOTS, 'quire-site-custom-font-375-dark.png'), fullPage: true });
    expect(reader.violations).toEqual([]);
    expect([...reader.origins]).toEqual([p.url]);
    await published.close();
  });

  it('adds a bold face to a custom font, then deletes it after confirming; the published site follows', {
    timeout: 150_000,
  }, async () => {
    const org = acme.organization.id;
    const { site, publishedUrl } = await siteOfOneSpace('Bold docs', 'Bold brand');
    const siteUrl = await publishedUrl();

    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Bold docs', level: 1 }).waitFor();
    await page.getByLabel('Font file').setInputFiles(FONT_FILE);
    await page.getByLabel('Font name').fill('Acme Follow');
    await page.getByRole('button', { name: 'Upload font' }).click();
    await page.getByText('Uploaded Acme Follow: chosen for the text.').waitFor();
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();

    // A bold face added to the font the site chose: the site draws its headings with it, not chosen again.
    const item = page.getByRole('listitem').filter({ hasText: 'Acme Follow' });
    expect(await item.getByText('Regular', { exact: true }).count()).toBe(1);
    await page.getByLabel('Bold (700) file for Acme Follow').setInputFiles(BOLD_FILE);
    await page.getByRole('button', { name: 'Add bold to Acme Follow' }).click();
    await page.getByText('Acme Follow: bold face added.').waitFor();
    await item.getByText('Regular, Bold').waitFor();
    const chosen = (await v1('GET', `/orgs/${org}/sites/${site.id}/customization`)).styling.font;
    expect(chosen.fontFaces.map((f: { weight: number }) => f.weight)).toEqual([400, 700]);

    const { page: published, ...reader } = await signedIn(browser, 'ann@acme.io');
    const faces = async () => {
      await published.goto(`${siteUrl}/install?fresh=${Date.now()}`);
      await published.getByRole('heading', { name: 'Requirements' }).waitFor();
      return published.evaluate(async () => {
        await document.fonts.ready;
        await document.fonts.load('700 16px "Acme Follow"').catch(() => []);
        return {
          body: getComputedStyle(document.body).fontFamily,
          loaded: [...(document.fonts as unknown as Iterable<FontFace>)]
            .filter((f) => f.status === 'loaded' && f.family.replace(/"/g, '') === 'Acme Follow')
            .map((f) => f.weight),
        };
      });
    };
    const bold = await faces();
    expect(bold.body.startsWith('"Acme Follow"')).toBe(true);
    expect(bold.loaded).toContain('700');

    // Deleted after a confirmation step: the site falls back to the default font. An unsaved edit of the form (the
    // title) stays in its field; the Text select, which chose the font, shows the site's default font again.
    const title = page.getByLabel('Title on the published site');
    await title.fill('Bold docs, not saved yet');
    await page.getByRole('button', { name: 'Delete Acme Follow' }).click();
    await page.getByRole('button', { name: 'Confirm delete Acme Follow' }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page
      .getByRole('form', { name: 'Customization' })
      .getByRole('group', { name: 'Fonts' })
      .screenshot({ path: join(SHOTS, 'quire-app-custom-font-delete-375.png') });
    await page.getByRole('button', { name: 'Confirm delete Acme Follow' }).click();
    await page.getByText('Deleted Acme Follow. Sites that used it draw the default font.').waitFor();
    expect(await page.getByRole('button', { name: 'Add bold to Acme Follow' }).count()).toBe(0);
    const afterDelete = await v1('GET', `/orgs/${org}/sites/${site.id}/customization`);
    expect(afterDelete.styling.font).toBe('Inter');
    expect(afterDelete.title).not.toBe('Bold docs, not saved yet');
    await expect.poll(() => page.getByLabel('Text', { exact: true }).inputValue()).toBe('Inter');
    expect(await title.inputValue()).toBe('Bold docs, not saved yet');
    expect(await page.getByLabel('Text', { exact: true }).locator('option', { hasText: 'Acme Follow' }).count()).toBe(
      0,
    );
    const after = await faces();
    expect(after.body.replace(/"/g, '').startsWith('Inter')).toBe(true);
    expect(after.loaded).toEqual([]);
    expect(seen.violations).toEqual([]);
    expect(reader.violations).toEqual([]);
    await page.close();
    await published.close();
  });

  it('nests section groups in the app; the published tabs show the group inside the group', {
    timeout: 150_000,
  }, async () => {
    const org = acme.organization.id;
    const one = await spaceWithPage('Basics');
    const two = await spaceWithPage('Deep dive');
    const site = await v1('POST', `/orgs/${org}/sites`, { title: 'Nested' });
    await v1('POST', `/orgs/${org}/sites/${site.id}/sections`, { spaceId: one, title: 'Basics' });
    await v1('POST', `/orgs/${org}/sites/${site.id}/sections`, { spaceId: two, title: 'Deep dive' });
    type Node = { title: string; children?: Node[] };
    const titles = (items: Node[]): unknown[] =>
      items.map((i) => (i.children ? { [i.title]: titles(i.children) } : i.title));
    const structure = async () => titles((await v1('GET', `/orgs/${org}/sites/${site.id}/structure`)).structure);
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Nested', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Publish Nested', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish Nested' }).waitFor();
    // A group, then a group inside it (chosen in the new group's "Inside group").
    await page.getByLabel('Title of the new group').fill('Guides');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByText('Group Guides added.').waitFor();
    await page.getByLabel('Title of the new group').fill('Advanced <b>');
    await page.getByRole('form', { name: 'Add a group of sections' }).getByLabel('Inside group').selectOption({
      label: 'Guides',
    });
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByText('Group Advanced <b> added in group Guides.').waitFor();
    await expect.poll(structure).toEqual(['Basics', 'Deep dive', { Guides: [{ 'Advanced <b>': [] }] }]);
    // Sections into each: Basics in Guides, Deep dive in Advanced (indented under Guides in the select).
    await page.getByLabel('Group of section Basics').selectOption({ label: 'Guides' });
    await expect.poll(structure).toEqual(['Deep dive', { Guides: [{ 'Advanced <b>': [] }, 'Basics'] }]);
    await page.getByLabel('Group of section Deep dive').selectOption({ label: '— Advanced <b>' });
    await expect.poll(structure).toEqual([{ Guides: [{ 'Advanced <b>': ['Deep dive'] }, 'Basics'] }]);
    // A group cannot move into itself or a group inside it: Guides, at the top, has nowhere else to go; Advanced
    // may go to the top level or stay in Guides.
    expect(await page.getByLabel('Inside group (of group Guides)').count()).toBe(0);
    const advancedIn = page.getByLabel('Inside group (of group Advanced <b>)');
    expect(await advancedIn.locator('option').allTextContents()).toEqual(['None (top level)', 'Guides']);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-nested-groups.png'), fullPage: true });

    // The published site: Guides is a menu with Advanced inside it, and Deep dive in Advanced.
    const siteUrl = `${p.url}${new URL((await v1('GET', `/orgs/${org}/sites/${site.id}`)).urls.published).pathname}`;
    const { page: published } = await signedIn(browser, 'ann@acme.io', { viewport: { width: 375, height: 800 } });
    await published.goto(siteUrl);
    const tabs = published.getByRole('navigation', { name: 'Sections' });
    await tabs.getByText('Guides').click();
    await tabs.getByText('Advanced <b>').waitFor();
    await tabs.getByRole('link', { name: 'Deep dive' }).waitFor();
    expect(await axe(published)).toEqual([]);
    await published.screenshot({ path: join(SHOTS, 'quire-site-nested-groups-375.png'), fullPage: true });
    await published.close();

    // Advanced moved to the top level from its own select.
    await page.getByLabel('Inside group (of group Advanced <b>)').selectOption({ label: 'None (top level)' });
    await page.getByText('Group Advanced <b> moved to the top level.').waitFor();
    await expect.poll(structure).toEqual([{ Guides: ['Basics'] }, { 'Advanced <b>': ['Deep dive'] }]);
    expect(seen.violations).toEqual([]);
    await page.close();
  });

  it("reorders the header links, and gives a section's space its own header links, footer and announcement", {
    timeout: 180_000,
  }, async () => {
    const org = acme.organization.id;
    const one = await spaceWithPage('Basics');
    const two = await spaceWithPage('Advanced');
    const site = await v1('POST', `/orgs/${org}/sites`, { title: 'Linked' });
    await v1('POST', `/orgs/${org}/sites/${site.id}/sections`, { spaceId: one, title: 'Basics' });
    await v1('POST', `/orgs/${org}/sites/${site.id}/sections`, { spaceId: two, title: 'Advanced' });
    const url = (title: string, href: string) => ({ title, to: { kind: 'url', url: href }, links: [] });
    const menu = {
      title: 'Menu',
      to: null,
      links: [{ title: 'Guide', to: { kind: 'url', url: 'https://acme.io/g' } }],
    };
    await v1('PUT', `/orgs/${org}/sites/${site.id}/customization`, {
      header: { links: [url('Blog', 'https://acme.io/blog'), url('Status', 'https://acme.io/status'), menu] },
      announcement: { enabled: true, message: 'Site news', style: 'info' },
    });
    await v1('POST', `/orgs/${org}/sites/${site.id}/publish`);
    const titles = (links: { title: string }[]) => links.map((l) => l.title);
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Linked', level: 1 }).waitFor();

    // Reordered by the buttons, then by the keyboard: each move said, the focus following the moved link.
    const form = page.getByRole('form', { name: 'Customization' });
    await form.getByRole('button', { name: 'Move down header link 1' }).click();
    await form.getByText('Moved header link 1 (Blog) down: now header link 2.').waitFor();
    expect(await form.getByLabel('Title of header link 1').inputValue()).toBe('Status');
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    expect(await focused()).toBe('Move down header link 2');
    await page.keyboard.press('Enter');
    await form.getByText('Moved header link 2 (Blog) down: now header link 3.').waitFor();
    // At the end of the list its Move down is disabled: the focus is on its Move up.
    expect(await focused()).toBe('Move up header link 3');
    expect(await form.getByRole('button', { name: 'Move up header link 1' }).isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();
    const saved = await v1('GET', `/orgs/${org}/sites/${site.id}/customization`);
    expect(titles(saved.header.links)).toEqual(['Status', 'Menu', 'Blog']);
    expect(saved.header.links[1]).toEqual(menu);

    // Advanced's own header links (the site's, less the menu, and one more), footer and announcement.
    await page.getByLabel('Space of the site').selectOption({ label: 'Advanced' });
    const look = page.getByRole('form', { name: 'The look of Advanced' });
    await look.getByLabel('Own header links').check();
    await look.getByRole('button', { name: 'Remove header link 2' }).click();
    await look.getByRole('button', { name: 'Add a header link' }).click();
    await look.getByLabel('Title of header link 3').fill('Changelog <i>');
    await look.getByLabel('URL of header link 3').fill('https://acme.io/changelog');
    await look.getByRole('button', { name: 'Move up header link 3' }).click();
    await look.getByText('Moved header link 3 (Changelog <i>) up: now header link 2.').waitFor();
    await look.getByLabel('Own footer').check();
    await look.getByLabel('Copyright line').fill('© Advanced <s>');
    await look.getByLabel('Own announcement').check();
    await look.getByLabel('Message', { exact: true }).fill('Only in Advanced <b>');
    await look.getByLabel('Style of the announcement').selectOption('warning');
    expect(await axe(page)).toEqual([]);
    await look.getByRole('button', { name: 'Save the look of Advanced' }).click();
    await page.getByText('The look of Advanced saved.').waitFor();
    const advanced = (await v1('GET', `/orgs/${org}/sites/${site.id}/site-spaces`)).items.find(
      (x: { title: string }) => x.title === 'Advanced',
    );
    const own = () => v1('GET', `/orgs/${org}/sites/${site.id}/site-spaces/${advanced.id}/customization`);
    const mine = await own();
    expect(titles(mine.header.links)).toEqual(['Status', 'Changelog <i>', 'Blog']);
    expect([mine.footer.copyright, mine.announcement]).toEqual([
      '© Advanced <s>',
      { enabled: true, message: 'Only in Advanced <b>', style: 'warning' },
    ]);
    // The site's stay as they were.
    const siteNow = await v1('GET', `/orgs/${org}/sites/${site.id}/customization`);
    expect([titles(siteNow.header.links), siteNow.announcement.message]).toEqual([
      ['Status', 'Menu', 'Blog'],
      'Site news',
    ]);
    await form
      .getByRole('group', { name: 'Header links', exact: true })
      .screenshot({ path: join(SHOTS, 'quire-app-header-links-1280.png') });
    await look.screenshot({ path: join(SHOTS, 'quire-app-site-space-links-1280.png') });

    // The published site at 375 px: Basics has the site's announcement and links, Advanced its own.
    const siteUrl = `${p.url}${new URL((await v1('GET', `/orgs/${org}/sites/${site.id}`)).urls.published).pathname}`;
    const { page: published, ...reader } = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 800 },
    });
    await published.goto(`${siteUrl}?fresh=${Date.now()}`);
    const banner = published.getByRole('region', { name: 'Announcement' });
    await banner.getByText('Site news').waitFor();
    expect(await published.getByRole('link', { name: 'Changelog <i>' }).count()).toBe(0);
    // The site's header menu (its link to the guide), which Advanced's own links leave out.
    const guide = published.locator('a[href="https://acme.io/g"]');
    expect(await guide.count()).toBe(1);
    await published.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Advanced' }).click();
    await banner.getByText('Only in Advanced <b>').waitFor();
    await published.getByRole('link', { name: 'Changelog <i>' }).first().waitFor();
    await published.getByText('© Advanced <s>').waitFor();
    expect(await guide.count()).toBe(0);
    expect(await published.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(published)).toEqual([]);
    await published.screenshot({ path: join(SHOTS, 'quire-site-space-links-375.png'), fullPage: true });
    expect(reader.violations).toEqual([]);
    await published.close();

    // Read again, the space's own fields show as such; its announcement turned off follows the site's again, the
    // rest of its own look kept.
    await page.reload();
    await page.getByLabel('Space of the site').selectOption({ label: 'Advanced' });
    expect(await look.getByLabel('Own header links').isChecked()).toBe(true);
    expect(await look.getByLabel('Title of header link 2').inputValue()).toBe('Changelog <i>');
    expect(await look.getByLabel('Copyright line').inputValue()).toBe('© Advanced <s>');
    await look.getByLabel('Own announcement').uncheck();
    await look.getByRole('button', { name: 'Save the look of Advanced' }).click();
    await page.getByText('The look of Advanced saved.').waitFor();
    const after = await own();
    expect([after.announcement.message, titles(after.header.links), after.footer.copyright]).toEqual([
      'Site news',
      ['Status', 'Changelog <i>', 'Blog'],
      '© Advanced <s>',
    ]);
    await expect.poll(() => look.getByLabel('Own announcement').isChecked()).toBe(false);

    // The form at 375 px, dark: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await look.screenshot({ path: join(SHOTS, 'quire-app-site-space-links-375-dark.png') });
    expect(seen.violations).toEqual([]);
    await page.close();
  });
});
