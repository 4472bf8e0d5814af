import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, png, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// The editor's link button and link targets, and an image's dark-mode file and width units (docs/app.md, "The
// editor"): the bar's Link opens the link dialog on the selection (a web address typed, an existing link edited or
// removed), a link goes to a file of the space or to a heading of this page or another one, picked in the dialog; an
// image gets a dark-mode file (uploaded, then removed and added again) and a width in percent. Each step is seen by
// the writer, then the change request's document is read through /v1. Keys typed while the editor opens (before its
// content is there) are typed into it once it is, not lost.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();

/** Selects a line with Home, Shift+End (again if a late selection change of the click collapsed it). */
async function selectLine(page: Page, editor: Locator, text: string) {
  await editor.getByText(text, { exact: true }).click();
  for (let i = 0; i < 3 && (await page.evaluate(() => String(getSelection()))) !== text; i++) {
    await page.waitForTimeout(200);
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
  }
  await expect.poll(() => page.evaluate(() => String(getSelection()))).toBe(text);
}

describe.skipIf(!hasChromium)('the editor: link targets and image settings, in Chromium', () => {
  const browser = useChromium();
  let space: string;
  let other: string;

  beforeAll(async () => {
    other = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Handbook <space>' })).id;
    space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Links' })).id;
    await changeRequest(space, 'First pages', [
      {
        operation: 'insert_page',
        title: 'Guide',
        document: {
          markdown:
            'Handbook\n\nTerms\n\nRead more\n\nSee the cake\n\nOther docs\n\n## Install\n\nSteps.\n\n## Use it\n\nMore.\n',
        },
      },
      {
        operation: 'insert_page',
        title: 'Prices',
        document: { markdown: 'Our prices.\n\n## Tea\n\nGreen.\n\n## Cake\n' },
      },
      { operation: 'insert_page', title: 'Media', document: { markdown: 'Pictures.\n' } },
      {
        operation: 'insert_files',
        files: [
          { name: 'terms.pdf', contentType: 'application/pdf', base64: Buffer.from('%PDF-1.4\n').toString('base64') },
        ],
      },
    ]).then((cr) => v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`));
  });

  it("links from the bar's Link button: a web address, a file, a heading of this page and of another, a space", {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/guide?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Guide' });
    await editor.waitFor();
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    const bar = page.getByRole('button', { name: 'Link', exact: true });
    const notice = page.locator('.upload-status');

    // nothing selected: the button says what to do
    await bar.click();
    expect(await notice.textContent()).toBe('Select some text first (or put the cursor in a link), then choose Link.');

    // a web address, from the keyboard: the button focused and pressed, the address typed
    await selectLine(page, editor, 'Handbook');
    expect(await bar.getAttribute('aria-keyshortcuts')).toBe('Control+K Meta+K');
    await bar.focus();
    await page.keyboard.press('Enter');
    const add = page.getByRole('dialog', { name: 'Add a link' });
    await add.waitFor();
    expect(await add.getByText('Text:').textContent()).toBe('Text: Handbook');
    await add.getByLabel('Web address').fill('example.com/handbook');
    await page.keyboard.press('Enter');
    await add.waitFor({ state: 'detached' });
    const handbook = editor.getByRole('link', { name: 'Handbook' });
    expect(await handbook.getAttribute('href')).toBe('https://example.com/handbook');

    // the same button in a link: its target shown, changed
    await handbook.click();
    await bar.click();
    const edit = page.getByRole('dialog', { name: 'Edit link' });
    expect(await edit.getByText('Links to:').textContent()).toBe('Links to: https://example.com/handbook');
    await edit.getByLabel('Web address').fill('https://docs.example.com/');
    await edit.getByRole('button', { name: 'Link to this address' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await handbook.getAttribute('href')).toBe('https://docs.example.com/');

    // a file of the space
    await selectLine(page, editor, 'Terms');
    await bar.click();
    await add.waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'editor-links-dialog-375-dark.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await add.getByRole('button', { name: 'Link to a file…' }).click();
    const files = page.getByRole('dialog', { name: 'Link "Terms" to a file' });
    await files.getByRole('option', { name: /terms\.pdf/ }).waitFor();
    await files.getByRole('combobox').fill('TERMS');
    await page.keyboard.press('Enter');
    await files.waitFor({ state: 'detached' });
    await expect.poll(() => notice.textContent()).toBe('"Terms" links to the file terms.pdf.');

    // a heading of this page
    await selectLine(page, editor, 'Read more');
    await bar.click();
    await add.getByRole('button', { name: 'Link to a heading…' }).click();
    const here = page.getByRole('dialog', { name: 'Link "Read more" to a heading of this page' });
    await here.getByRole('listbox', { name: 'Headings' }).waitFor();
    expect(await here.getByRole('option').allTextContents()).toEqual(['Install #install', 'Use it #use-it']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await here.waitFor({ state: 'detached' });
    await expect.poll(() => notice.textContent()).toBe('"Read more" links to the heading #use-it.');

    // a heading of another page: its page picked first; the dialogs checked with axe, light and dark, 375 px wide
    await selectLine(page, editor, 'See the cake');
    await bar.click();
    await add.getByRole('button', { name: 'Link to a heading…' }).click();
    await page
      .getByRole('dialog', { name: /to a heading of this page/ })
      .getByRole('button', { name: 'Another page…' })
      .click();
    const which = page.getByRole('dialog', { name: 'Link to a heading of which page?' });
    await which.getByRole('option', { name: /Prices/ }).waitFor();
    await which.getByRole('combobox').fill('Prices');
    await page.keyboard.press('Enter');
    const there = page.getByRole('dialog', { name: 'Link "See the cake" to a heading of Prices' });
    await there.getByRole('option', { name: /Cake/ }).waitFor();
    expect(await there.getByRole('option').allTextContents()).toEqual(['Tea #tea', 'Cake #cake']);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'editor-links-heading-1280-light.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'editor-links-heading-375-dark.png') });
    await there.getByRole('option', { name: /Cake/ }).click();
    await there.waitFor({ state: 'detached' });
    await expect.poll(() => notice.textContent()).toBe('"See the cake" links to the heading #cake of the page Prices.');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });

    // another space of the organization (its title escaped)
    await selectLine(page, editor, 'Other docs');
    await bar.click();
    await add.getByRole('button', { name: 'Link to a space…' }).click();
    const spaces = page.getByRole('dialog', { name: 'Link "Other docs" to a space' });
    await spaces.getByRole('option', { name: 'Handbook <space>' }).click();
    await spaces.waitFor({ state: 'detached' });
    await expect.poll(() => notice.textContent()).toBe('"Other docs" links to the space Handbook <space>.');

    // the link's settings name its target; the bar's button removes it
    await editor.locator('a', { hasText: 'Terms' }).click();
    const linkSettings = page.getByRole('region', { name: 'Link settings' });
    await expect.poll(() => linkSettings.getByText('Links to:').textContent()).toBe('Links to: the file terms.pdf');
    await editor.getByText('Steps.').click();
    await selectLine(page, editor, 'Steps.');
    await bar.click();
    await add.getByLabel('Web address').fill('https://example.com/steps');
    await page.keyboard.press('Enter');
    await add.waitFor({ state: 'detached' });
    await editor.getByRole('link', { name: 'Steps.' }).click();
    await bar.click();
    await edit.getByRole('button', { name: 'Remove link' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await editor.locator('a', { hasText: 'Steps.' }).count()).toBe(0);

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await page.waitForURL(/\/~\/changes\/\d+\/guide\?edit$/);
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const where = `/spaces/${space}/change-requests/${number}/content`;
    const read = await v1(acme.token, 'GET', `${where}/path/guide?format=document`);
    const prices = await v1(acme.token, 'GET', `${where}/path/prices`);
    const terms = ((await v1(acme.token, 'GET', `${where}/files`)).items as { id: string; name: string }[]).find(
      (f) => f.name === 'terms.pdf',
    )!;
    const links = read.document.nodes
      .flatMap((n: { nodes: { object: string; type?: string; data?: unknown }[] }) => n.nodes ?? [])
      .filter((i: { object: string; type?: string }) => i.object === 'inline' && i.type === 'link')
      .map((i: { data: unknown }) => i.data);
    expect(links).toEqual([
      { ref: { kind: 'url', url: 'https://docs.example.com/' } },
      { ref: { kind: 'file', file: terms.id } },
      { ref: { kind: 'anchor', anchor: 'use-it' } },
      { ref: { kind: 'anchor', anchor: 'cake', page: prices.id } },
      { ref: { kind: 'space', space: other } },
    ]);
    expect(violations).toEqual([]);
  });

  it("gives an image a dark-mode file and a width in percent, in the image's settings", {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/media?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Media' });
    await editor.waitFor();
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    let chooser = page.waitForEvent('filechooser');
    await page.keyboard.type('/image');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({
      name: 'light.png',
      mimeType: 'image/png',
      buffer: png(200, 100, [240, 240, 200]),
    });
    await page.getByText('Uploaded light.png.').waitFor({ timeout: 30_000 });
    const picture = editor.locator('.gb-image img');
    await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(200);
    await editor.locator('.gb-image').click();
    const settings = page.getByRole('region', { name: 'Image settings' });
    expect(await settings.locator('.image-dark').textContent()).toBe('Dark mode: the same image');

    // the dark-mode file: uploaded as the image is, named in the settings
    chooser = page.waitForEvent('filechooser');
    await settings.getByRole('button', { name: 'Add a dark-mode image…' }).click();
    await (await chooser).setFiles({ name: 'dark.png', mimeType: 'image/png', buffer: png(200, 100, [20, 20, 60]) });
    await page.getByText("The image's dark-mode file is dark.png.").waitFor({ timeout: 30_000 });
    expect(await settings.locator('.image-dark').textContent()).toBe('Dark mode: dark.png');
    // removed, then added again
    await settings.getByRole('button', { name: 'Remove dark-mode image' }).click();
    expect(await settings.locator('.image-dark').textContent()).toBe('Dark mode: the same image');
    chooser = page.waitForEvent('filechooser');
    await settings.getByRole('button', { name: 'Add a dark-mode image…' }).click();
    await (await chooser).setFiles({ name: 'night.png', mimeType: 'image/png', buffer: png(200, 100, [0, 0, 30]) });
    await page.getByText("The image's dark-mode file is night.png.").waitFor({ timeout: 30_000 });
    expect(await settings.locator('.image-dark').textContent()).toBe('Dark mode: night.png');
    expect(await settings.getByRole('button', { name: 'Replace dark-mode image…' }).count()).toBe(1);

    // the width: pixels, then a percentage of the text's width (a unit the site does not draw is not taken)
    const width = settings.getByLabel('Width (px or %)');
    await width.fill('120');
    await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.getBoundingClientRect().width)).toBe(120);
    await width.fill('50%');
    // half of the block's content box
    const half = await editor.locator('.gb-image').evaluate((el) => {
      const style = getComputedStyle(el);
      return (el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)) / 2;
    });
    await expect
      .poll(() => picture.evaluate((i: HTMLImageElement, h) => Math.abs(i.getBoundingClientRect().width - h) < 2, half))
      .toBe(true);
    await width.fill('3em');
    expect(await width.inputValue()).toBe('50%');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'editor-links-image-1280-light.png') });
    // in dark mode the editor shows the dark-mode file, as the published site does
    const shown = () => picture.evaluate((i: HTMLImageElement) => i.currentSrc);
    const light = await shown();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(shown).not.toBe(light);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'editor-links-image-375-dark.png'), fullPage: true });

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const where = `/spaces/${space}/change-requests/${number}/content`;
    const read = await v1(acme.token, 'GET', `${where}/path/media?format=document`);
    const files = (await v1(acme.token, 'GET', `${where}/files`)).items as { id: string; name: string }[];
    const id = (name: string) => files.find((f) => f.name === name)!.id;
    const images = read.document.nodes.find((n: { type: string }) => n.type === 'images');
    expect(images.nodes[0].data).toEqual({
      ref: { kind: 'file', file: id('light.png') },
      refDark: { kind: 'file', file: id('night.png') },
      alt: 'light',
      width: { unit: '%', value: 50 },
    });
    expect(violations).toEqual([]);
  });

  it("links a table cell's text from the bar; the link's settings show beside the table's", {
    timeout: 240_000,
  }, async () => {
    const cr = await changeRequest(space, 'A table', [
      {
        operation: 'insert_page',
        title: 'Shops',
        document: { markdown: 'Shops.\n\n| Name | Site |\n| --- | --- |\n| Tea | Tea house |\n' },
      },
    ]);
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/~/changes/${cr.number}/shops?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Shops' });
    await editor.locator('table').getByText('Tea house').waitFor();
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await selectLine(page, editor, 'Tea house');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add a link' });
    await add.getByLabel('Web address').fill('tea.example.com');
    await page.keyboard.press('Enter');
    await add.waitFor({ state: 'detached' });
    const link = editor.getByRole('link', { name: 'Tea house' });
    expect(await link.getAttribute('href')).toBe('https://tea.example.com');
    // the cursor in the link: the table's settings and the link's
    await link.click();
    const linkSettings = page.getByRole('region', { name: 'Link settings' });
    await expect
      .poll(() => linkSettings.getByText('Links to:').textContent())
      .toBe('Links to: https://tea.example.com');
    expect(await page.getByRole('region', { name: 'Table settings' }).count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'editor-links-table-1280-light.png') });
    await linkSettings.getByRole('button', { name: 'Edit link…' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit link' });
    await edit.getByLabel('Web address').fill('https://docs.example.com/tea');
    await page.keyboard.press('Enter');
    await edit.waitFor({ state: 'detached' });
    expect(await link.getAttribute('href')).toBe('https://docs.example.com/tea');

    await expect
      .poll(
        async () =>
          JSON.stringify(
            (
              await v1(
                acme.token,
                'GET',
                `/spaces/${space}/change-requests/${cr.id}/content/path/shops?format=document`,
              )
            ).document,
          ).includes('{"ref":{"kind":"url","url":"https://docs.example.com/tea"}}'),
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(violations).toEqual([]);
  });

  it('keeps the keys typed while the editor opens and types them in once the content is there', {
    timeout: 240_000,
  }, async () => {
    const cr = await changeRequest(space, 'Typing early', [
      { operation: 'insert_page', title: 'Notes', document: { markdown: 'First line.\n' } },
    ]);
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    // the page's content is slow to come: the writer types before the editor has it
    await page.route('**/content/path/notes**', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const texts = async () => {
      const read = await v1(
        acme.token,
        'GET',
        `/spaces/${space}/change-requests/${cr.id}/content/path/notes?format=document`,
      );
      return read.document.nodes.map((n: { nodes: { leaves?: { text: string }[] }[] }) =>
        n.nodes.map((t) => (t.leaves ?? []).map((l) => l.text).join('')).join(''),
      );
    };
    const editor = page.getByRole('textbox', { name: 'Content of Notes' });
    for (const [typed, expected] of [
      [' Early words', 'First line. Early words'],
      ['Enter', 'Again'],
    ]) {
      await page.goto(`${base}/~/changes/${cr.number}/notes?edit`);
      await page.locator('.page-editor').waitFor();
      expect(await editor.count()).toBe(0); // not made yet
      if (typed === 'Enter') {
        await page.keyboard.press('Enter');
        await page.keyboard.type('Agx');
        await page.keyboard.press('Backspace');
        await page.keyboard.type('ain');
      } else await page.keyboard.type(typed!);
      // typed at the end of the page, where the caret is when the editor opens
      await expect.poll(() => editor.locator('p').last().textContent(), { timeout: 20_000 }).toBe(expected);
      await expect.poll(() => page.getByText('Saved', { exact: true }).count(), { timeout: 20_000 }).toBe(1);
    }
    await expect.poll(texts, { timeout: 20_000 }).toEqual(['First line. Early words', 'Again']);
    expect(violations).toEqual([]);
  });
});
