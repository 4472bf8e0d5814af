import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, openTable, png, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// The editor's blocks once set (docs/app.md, "The editor"): a table's rows and columns added and deleted from the
// keyboard and from its settings, its header row drawn as the published site draws it; links made, changed and
// removed with Ctrl-K and the link dialog (a web address or a page); a page reference's target changed, an image's
// width set and its file replaced; each step seen by the writer, then the change request's document read through /v1 and the page read as the site renders it.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();

describe.skipIf(!hasChromium)('the editor: tables, in Chromium', () => {
  const browser = useChromium();
  let space: string;

  beforeAll(async () => {
    space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Reference' })).id;
    await changeRequest(space, 'First pages', [
      {
        operation: 'insert_page',
        title: 'Prices',
        document: { markdown: 'Our prices.\n\n| Name | Price |\n| --- | --- |\n| Tea | 3 |\n| Cake | 5 |\n' },
      },
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Handbook\n\nPricing\n' } },
      { operation: 'insert_page', title: 'Media', document: { markdown: 'Pictures and references.\n' } },
    ]).then((cr) => v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`));
  });

  it('adds and deletes rows and columns by keys and by the table menu; the header row is drawn', {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    const { editor, table, header, rows } = await openTable(page, `${base}/prices?edit`, 'Prices');
    // the header row: the column titles, as the published site draws them, not editable text
    expect(await header()).toEqual(['Name', 'Price']);
    expect(await table.locator('thead').getAttribute('contenteditable')).toBe('false');
    expect(await rows()).toEqual([
      ['Tea', '3'],
      ['Cake', '5'],
    ]);

    // keys: a column right of "Tea", typed into with Tab
    await table.getByText('Tea').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Alt+Shift+ArrowRight');
    const notice = page.locator('.upload-status');
    await expect.poll(() => notice.textContent()).toBe('Column added on the right.');
    expect(await header()).toEqual(['Name', '', 'Price']);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Green');
    // a row below, from the keys; its first cell typed into
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await expect.poll(rows).toEqual([
      ['Tea', 'Green', '3'],
      ['', '', ''],
      ['Cake', '', '5'],
    ]);
    await table.locator('tbody tr').nth(1).locator('td').first().click();
    await page.keyboard.type('Coffee');

    // the table's settings: the new column's title, shown in the header at once
    const settings = page.getByRole('region', { name: 'Table settings' });
    await settings.getByLabel('Column 2 title').fill('Kind');
    expect(await header()).toEqual(['Name', 'Kind', 'Price']);
    // the menu: a column added left of "Cake"'s, then deleted again; the last row deleted
    await table.getByText('Cake').click();
    const menu = settings.getByRole('group', { name: /^Rows and columns/ });
    await menu.getByRole('button', { name: 'Add column left' }).click();
    expect(await header()).toEqual(['', 'Name', 'Kind', 'Price']);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-table.png') });
    expect(await axe(page)).toEqual([]);
    // the column of the cursor is deleted: the new one's cell in the row of "Cake"
    await table.locator('tbody tr').nth(2).locator('td').first().click();
    await menu.getByRole('button', { name: 'Delete column' }).click();
    await expect.poll(() => notice.textContent()).toBe('Column deleted.');
    expect(await header()).toEqual(['Name', 'Kind', 'Price']);
    await table.getByText('Cake').click();
    await menu.getByRole('button', { name: 'Delete row' }).click();
    await expect.poll(rows).toEqual([
      ['Tea', 'Green', '3'],
      ['Coffee', '', ''],
    ]);
    // the keyboard only: Tab moves between cells, Alt+F10 from the text to the menu, Escape back
    await table.getByText('Coffee').click();
    const addAbove = menu.getByRole('button', { name: 'Add row above' });
    const focused = (l: typeof addAbove) => l.evaluate((el) => el === document.activeElement);
    // (focus moves in the next frame: waited for, not read once)
    await page.keyboard.press('Alt+F10');
    await expect.poll(() => focused(addAbove)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Alt+F10');
    await page.keyboard.press('Enter');
    await expect.poll(rows).toEqual([
      ['Tea', 'Green', '3'],
      ['', '', ''],
      ['Coffee', '', ''],
    ]);
    // and undone: the editor has the focus back
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+z');
    await expect.poll(rows).toEqual([
      ['Tea', 'Green', '3'],
      ['Coffee', '', ''],
    ]);
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await page.waitForURL(/\/~\/changes\/\d+\/prices\?edit$/);
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;

    // the change request's document: one column per cell, every record's values in its columns
    const read = await v1(
      acme.token,
      'GET',
      `/spaces/${space}/change-requests/${number}/content/path/prices?format=document`,
    );
    const t = read.document.nodes.find((n: { type: string }) => n.type === 'table');
    const ids: string[] = t.data.view.columns;
    expect(ids.map((id) => t.data.definition[id].title)).toEqual(['Name', 'Kind', 'Price']);
    expect(Object.keys(t.data.definition)).toEqual(ids);
    const names = new Set(t.fragments.map((f: { fragment: string }) => f.fragment));
    for (const record of Object.values(t.data.records) as { values: Record<string, string> }[]) {
      expect(Object.keys(record.values).sort()).toEqual([...ids].sort());
      for (const v of Object.values(record.values)) expect(names.has(v)).toBe(true);
    }

    // 375 px, dark: the table and its menu fit
    const narrow = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 800 },
      colorScheme: 'dark',
    });
    await narrow.page.goto(`${base}/~/changes/${number}/prices?edit`);
    await narrow.page.getByRole('textbox', { name: 'Content of Prices' }).locator('td').first().click();
    await narrow.page.getByRole('group', { name: /^Rows and columns/ }).waitFor();
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(narrow.page)).toEqual([]);
    await narrow.page.screenshot({ path: join(SHOTS, 'quire-app-editor-table-375-dark.png'), fullPage: true });

    // merged and published: the site draws the same header and rows
    const cr = await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${number}`);
    await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`);
    const org = acme.organization.id;
    const site = await v1(acme.token, 'POST', `/orgs/${org}/sites`, { title: 'Reference site', spaces: [space] });
    const published = await v1(acme.token, 'POST', `/orgs/${org}/sites/${site.id}/publish`);
    const reader = await browser.newPage();
    await reader.goto(`${p.url}${new URL(published.urls.published).pathname}/prices`);
    const drawn = reader.locator('main table').first();
    await drawn.waitFor();
    expect(await drawn.locator('thead th').allTextContents()).toEqual(['Name', 'Kind', 'Price']);
    expect(
      await drawn
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent))),
    ).toEqual([
      ['Tea', 'Green', '3'],
      ['Coffee', '', ''],
    ]);
    await reader.screenshot({ path: join(SHOTS, 'quire-app-editor-table-published.png') });
    await reader.close();

    expect(violations).toEqual([]);
    expect(narrow.violations).toEqual([]);
  });

  it('links text to a web address and to a page with Ctrl-K, edits and removes a link', {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/guide?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Guide' });
    await editor.waitFor();
    // the editor puts the cursor at the end as it opens: the line is selected once that is done
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    /** Selects a line with Home, Shift+End (again if a late selection change of the click collapsed it). */
    const selectLine = async (text: string) => {
      await editor.getByText(text, { exact: true }).click();
      for (let i = 0; i < 3 && (await page.evaluate(() => String(getSelection()))) !== text; i++) {
        await page.waitForTimeout(200);
        await page.keyboard.press('Home');
        await page.keyboard.press('Shift+End');
      }
      await expect.poll(() => page.evaluate(() => String(getSelection()))).toBe(text);
    };
    const open = () => page.locator('dialog[open]');

    // a web address: a wrong one refused with a sentence, then a bare domain made https
    await selectLine('Handbook');
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Add a link' });
    await dialog.waitFor();
    expect(await open().count()).toBe(1); // the app's quick-find palette did not open too
    expect(await dialog.getByText('Text:').textContent()).toBe('Text: Handbook');
    const address = dialog.getByLabel('Web address');
    await address.fill('javascript:alert(1)');
    await page.keyboard.press('Enter');
    expect(await dialog.getByRole('alert').textContent()).toBe(
      '"javascript:alert(1)" is not a web address (https://…, or mailto:…).',
    );
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-link-dialog.png') });
    await address.fill('example.com/handbook');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const handbook = editor.getByRole('link', { name: 'Handbook' });
    expect(await handbook.getAttribute('href')).toBe('https://example.com/handbook');
    const notice = page.locator('.upload-status');
    expect(await notice.textContent()).toBe('"Handbook" links to https://example.com/handbook.');

    // a page of the space, through the page picker, from the keyboard
    await selectLine('Pricing');
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Add a link' }).getByRole('button', { name: 'Link to a page…' }).click();
    const picker = page.getByRole('dialog', { name: 'Link "Pricing" to a page' });
    await picker.getByRole('option', { name: /Prices/ }).waitFor();
    await picker.getByRole('combobox').fill('Pri');
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    await expect.poll(() => notice.textContent()).toBe('"Pricing" links to the page Prices.');
    expect(await editor.locator('a', { hasText: 'Pricing' }).count()).toBe(1);

    // an existing link: the cursor in it, Ctrl-K shows its target; changed, then removed
    await editor.getByText('Handbook').click();
    await page.keyboard.press('Control+k');
    const edit = page.getByRole('dialog', { name: 'Edit link' });
    expect(await edit.getByText('Links to:').textContent()).toBe('Links to: https://example.com/handbook');
    expect(await edit.getByLabel('Web address').inputValue()).toBe('https://example.com/handbook');
    await edit.getByLabel('Web address').fill('https://docs.example.com/');
    await edit.getByRole('button', { name: 'Link to this address' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await handbook.getAttribute('href')).toBe('https://docs.example.com/');
    await editor.getByText('Pricing').click();
    await page.keyboard.press('Control+k');
    const pricing = page.getByRole('dialog', { name: 'Edit link' });
    expect(await pricing.getByText('Links to:').textContent()).toBe('Links to: the page Prices');
    await pricing.getByRole('button', { name: 'Remove link' }).click();
    await pricing.waitFor({ state: 'detached' });
    expect(await editor.locator('a', { hasText: 'Pricing' }).count()).toBe(0);
    expect(await editor.getByText('Pricing').count()).toBe(1);
    // and the link again by undo (the editor has the focus back)
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+z');
    await expect.poll(() => editor.locator('a', { hasText: 'Pricing' }).count()).toBe(1);

    // with the mouse: the cursor in a link shows its settings, "Edit link…" opens the dialog
    await handbook.click();
    const linkSettings = page.getByRole('region', { name: 'Link settings' });
    await expect
      .poll(() => linkSettings.getByText('Links to:').textContent())
      .toBe('Links to: https://docs.example.com/');
    await linkSettings.getByRole('button', { name: 'Edit link…' }).click();
    const again = page.getByRole('dialog', { name: 'Edit link' });
    await again.waitFor();
    await page.keyboard.press('Escape');
    await again.waitFor({ state: 'detached' });
    expect(await handbook.getAttribute('href')).toBe('https://docs.example.com/');

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await page.waitForURL(/\/~\/changes\/\d+\/guide\?edit$/);
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const read = await v1(
      acme.token,
      'GET',
      `/spaces/${space}/change-requests/${number}/content/path/guide?format=document`,
    );
    const prices = await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${number}/content/path/prices`);
    const links = read.document.nodes.map((n: { nodes: { object: string; type?: string; data?: unknown }[] }) =>
      n.nodes.filter((i) => i.object === 'inline').map((i) => [i.type, i.data]),
    );
    expect(links).toEqual([
      [['link', { ref: { kind: 'url', url: 'https://docs.example.com/' } }]],
      [['link', { ref: { kind: 'page', page: prices.id } }]],
    ]);
    expect(violations).toEqual([]);
  });

  it("changes a page reference's page, an image's width and its file, in the block's settings", {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/media?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Media' });
    await editor.waitFor();
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    const insert = async (query: string) => {
      await page.keyboard.type(`/${query}`);
      await menu.waitFor();
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'detached' });
    };
    const notice = page.locator('.upload-status');

    // a page reference to Prices, then to Guide through its settings
    await insert('page');
    const picker = page.getByRole('dialog', { name: 'Insert a page reference' });
    await picker.getByRole('combobox').fill('Prices');
    await picker.getByRole('option', { name: /Prices/ }).waitFor(); // the pages are read when it opens
    await page.keyboard.press('Enter');
    const ref = editor.locator('.gb-content-ref');
    await expect.poll(() => ref.textContent()).toBe('Page link: Prices');
    await ref.click();
    const refSettings = page.getByRole('region', { name: 'Page reference settings' });
    expect(await refSettings.getByText('Links to:').textContent()).toBe('Links to: the page Prices');
    await refSettings.getByRole('button', { name: 'Change page…' }).click();
    const change = page.getByRole('dialog', { name: 'Change the referenced page' });
    await change.getByRole('combobox').fill('Guide');
    await change.getByRole('option', { name: /Guide/ }).waitFor();
    await page.keyboard.press('Enter');
    await change.waitFor({ state: 'detached' });
    await expect.poll(() => ref.textContent()).toBe('Page link: Guide');
    expect(await refSettings.getByText('Links to:').textContent()).toBe('Links to: the page Guide');
    expect(await notice.textContent()).toBe('The page reference now links to Guide.');

    // an image: uploaded, given a width, its file replaced (its alt text and width kept)
    await page.keyboard.press('Enter'); // a paragraph below the selected reference
    let chooser = page.waitForEvent('filechooser');
    await insert('image');
    await (await chooser).setFiles({ name: 'blue.png', mimeType: 'image/png', buffer: png(200, 100, [30, 90, 220]) });
    await page.getByText('Uploaded blue.png.').waitFor({ timeout: 30_000 });
    const picture = editor.locator('.gb-image img');
    await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(200);
    await editor.locator('.gb-image').click();
    const imageSettings = page.getByRole('region', { name: 'Image settings' });
    await imageSettings.getByLabel('Alt text').fill('A blue band');
    await imageSettings.getByLabel('Width (px or %)').fill('120');
    await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.getBoundingClientRect().width)).toBe(120);
    chooser = page.waitForEvent('filechooser');
    await imageSettings.getByRole('button', { name: 'Replace file…' }).click();
    await (await chooser).setFiles({ name: 'orange.png', mimeType: 'image/png', buffer: png(60, 40, [240, 140, 30]) });
    await page.getByText("Replaced the image's file with orange.png.").waitFor({ timeout: 30_000 });
    await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(60);
    expect(await picture.evaluate((i: HTMLImageElement) => i.getBoundingClientRect().width)).toBe(120);
    expect(await picture.getAttribute('alt')).toBe('A blue band');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-image-settings.png') });

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const where = `/spaces/${space}/change-requests/${number}/content`;
    const read = await v1(acme.token, 'GET', `${where}/path/media?format=document`);
    const guide = await v1(acme.token, 'GET', `${where}/path/guide`);
    const files = (await v1(acme.token, 'GET', `${where}/files`)).items as { id: string; name: string }[];
    const orange = files.find((f) => f.name === 'orange.png')!;
    const [, contentRef, images] = read.document.nodes;
    expect(contentRef.data).toEqual({ ref: { kind: 'page', page: guide.id } });
    expect(images.nodes[0].data).toEqual({ ref: { kind: 'file', file: orange.id }, alt: 'A blue band', width: 120 });
    expect(violations).toEqual([]);
  });
});
