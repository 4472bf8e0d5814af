import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// GitBook's tables beyond text (docs/app.md, "Tables"): the values of a grid's number, checkbox, rating and link
// columns drawn in the editor and set from the table's settings with the keys, a column moved and aligned, a second
// table switched to cards (its link column the cards' link); the change request's document read through /v1, then the
// published page showing all of it.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();

const para = (text: string) => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});
const fragment = (name: string, text: string) => ({ object: 'fragment', fragment: name, nodes: [para(text)] });
const PRICES = {
  object: 'block',
  type: 'table',
  data: {
    view: { type: 'grid', columns: ['name', 'price', 'stock', 'notes', 'stars', 'site'], hideHeader: false },
    records: {
      r1: {
        orderIndex: 'a0',
        values: {
          name: 'f1',
          price: 3,
          stock: true,
          notes: 'f2',
          stars: 4,
          site: { kind: 'url', url: 'https://a.example/tea' },
        },
      },
      r2: { orderIndex: 'a1', values: { name: 'f3', price: 5, stock: false, notes: 'f4', stars: 2 } },
    },
    definition: {
      name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
      price: { id: 'price', title: 'Price', type: 'number' },
      stock: { id: 'stock', title: 'In stock', type: 'checkbox' },
      notes: { id: 'notes', title: 'Notes', type: 'text', textAlignment: 'right' },
      stars: { id: 'stars', title: 'Stars', type: 'rating', max: 5 },
      site: { id: 'site', title: 'Site', type: 'content-ref' },
    },
  },
  fragments: [fragment('f1', 'Tea'), fragment('f2', 'Green'), fragment('f3', 'Cake'), fragment('f4', 'Lemon')],
  isVoid: true,
};
const GUIDES = {
  object: 'block',
  type: 'table',
  data: {
    view: { type: 'grid', columns: ['title', 'link'], hideHeader: false },
    records: {
      g1: { orderIndex: 'a0', values: { title: 'g1', link: { kind: 'url', url: 'https://example.com/start' } } },
      g2: { orderIndex: 'a1', values: { title: 'g2', link: { kind: 'url', url: 'https://example.com/faq' } } },
    },
    definition: {
      title: { id: 'title', title: 'Guide', type: 'text', textAlignment: 'left' },
      link: { id: 'link', title: 'Link', type: 'content-ref' },
    },
  },
  fragments: [fragment('g1', 'Getting started'), fragment('g2', 'Questions')],
  isVoid: true,
};

describe.skipIf(!hasChromium)('the editor: tables with columns that are not text, in Chromium', () => {
  const browser = useChromium();
  let space: string;

  beforeAll(async () => {
    space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Shop' })).id;
    const document = { object: 'document', data: {}, nodes: [para('Our prices.'), PRICES, para('Guides.'), GUIDES] };
    await changeRequest(space, 'Prices', [{ operation: 'insert_page', title: 'Prices', document: { document } }]).then(
      (cr) => v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`),
    );
  });

  it('sets values, moves and aligns a column, shows a table as cards: the published page shows it', {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/prices?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Prices' });
    await editor.waitFor();
    const table = editor.locator('table').first();
    const header = () => table.locator('thead th').allTextContents();
    const rows = () =>
      table
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
    // every column in its place, the ones that are not text drawn as the site draws them
    expect(await header()).toEqual(['Name', 'Price', 'In stock', 'Notes', 'Stars', 'Site']);
    expect(await rows()).toEqual([
      ['Tea', '3', '☑', 'Green', '★★★★☆', 'https://a.example/tea'],
      ['Cake', '5', '☐', 'Lemon', '★★☆☆☆', ''],
    ]);

    // the keyboard: into the table, down to Cake's row; its values in the table's settings
    await table.getByText('Tea', { exact: true }).click();
    await page.keyboard.press('ArrowDown');
    const settings = page.getByRole('region', { name: 'Table settings' });
    const row = settings.getByRole('group', { name: 'Row 2', exact: true });
    const price = row.getByRole('textbox', { name: 'Price' });
    await expect.poll(() => price.inputValue()).toBe('5');
    await price.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('4.5');
    await row.getByRole('checkbox', { name: 'In stock' }).focus();
    await page.keyboard.press('Space');
    const stars = row.getByRole('combobox', { name: 'Stars' });
    await stars.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => stars.inputValue()).toBe('3');
    await row.getByRole('textbox', { name: 'Site' }).focus();
    await page.keyboard.type('example.com/cake');
    await page.keyboard.press('Enter');
    const notice = page.locator('.upload-status');
    await expect.poll(() => notice.textContent()).toBe('Site set.');
    await expect.poll(rows).toEqual([
      ['Tea', '3', '☑', 'Green', '★★★★☆', 'https://a.example/tea'],
      ['Cake', '4.5', '☑', 'Lemon', '★★★☆☆', 'https://example.com/cake'],
    ]);

    // a column moved: from Cake, Tab to Lemon (Notes); its column's "Move left", twice
    await table.getByText('Cake', { exact: true }).click();
    await page.keyboard.press('Tab');
    const column = settings.getByRole('group', { name: 'Column', exact: true });
    // (the stored page names its columns c1, c2…: the option's text is what the writer reads)
    const chosen = (l: ReturnType<typeof column.getByRole>) =>
      l.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent);
    await expect.poll(() => chosen(column.getByRole('combobox', { name: 'Column', exact: true }))).toBe('Notes (Text)');
    const left = column.getByRole('button', { name: 'Move left' });
    await left.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect.poll(header).toEqual(['Name', 'Notes', 'Price', 'In stock', 'Stars', 'Site']);
    expect(await notice.textContent()).toBe('Notes moved left.');
    // and centred
    const align = column.getByRole('combobox', { name: 'Alignment' });
    expect(await align.inputValue()).toBe('right');
    await align.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => table.locator('tbody td.align-center').allTextContents()).toEqual(['Green', 'Lemon']);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-table-values.png'), fullPage: true });

    // the second table shown as cards, its link column the cards' link
    const guides = editor.locator('table').nth(1);
    await guides.getByText('Questions', { exact: true }).click();
    const view = settings.getByRole('group', { name: 'View', exact: true });
    const showAs = view.getByRole('combobox', { name: 'Show as' });
    await showAs.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => notice.textContent()).toBe('Shown as cards.');
    expect(await chosen(view.getByRole('combobox', { name: 'Card link' }))).toBe('Link (Link)');
    const size = view.getByRole('combobox', { name: 'Card size' });
    await size.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => size.inputValue()).toBe('large');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-table-cards.png'), fullPage: true });

    // written into the change request: GitBook's table, read through /v1
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await page.waitForURL(/\/~\/changes\/\d+\/prices\?edit$/);
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const path = `/spaces/${space}/change-requests/${number}/content/path/prices?format=document`;
    await expect
      .poll(async () => (await v1(acme.token, 'GET', path)).document.nodes[3].data.view.cardSize, { timeout: 20_000 })
      .toBe('large');
    const read = (await v1(acme.token, 'GET', path)).document;
    const prices = read.nodes[1];
    const titles = (t: typeof prices) => t.data.view.columns.map((id: string) => t.data.definition[id].title);
    expect(titles(prices)).toEqual(['Name', 'Notes', 'Price', 'In stock', 'Stars', 'Site']);
    const ordered = Object.values(prices.data.records as Record<string, { orderIndex: string; values: any }>).sort(
      (a, b) => (a.orderIndex < b.orderIndex ? -1 : 1),
    );
    const id = (title: string) =>
      prices.data.view.columns.find((c: string) => prices.data.definition[c].title === title);
    expect(ordered[1]!.values[id('Price')]).toBe(4.5);
    expect(ordered[1]!.values[id('In stock')]).toBe(true);
    expect(ordered[1]!.values[id('Stars')]).toBe(3);
    expect(ordered[1]!.values[id('Site')]).toEqual({ kind: 'url', url: 'https://example.com/cake' });
    expect(prices.data.definition[id('Notes')].textAlignment).toBe('center');
    expect(read.nodes[3].data.view).toMatchObject({ type: 'cards', cardSize: 'large' });

    // 375 px, dark: the table's settings fit
    const narrow = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 800 },
      colorScheme: 'dark',
    });
    await narrow.page.goto(`${base}/~/changes/${number}/prices?edit`);
    await narrow.page.getByRole('textbox', { name: 'Content of Prices' }).getByText('Cake', { exact: true }).click();
    await narrow.page.getByRole('group', { name: 'Row 2', exact: true }).waitFor();
    await narrow.page.screenshot({ path: join(SHOTS, 'quire-app-editor-table-values-375-dark.png'), fullPage: true });
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(narrow.page)).toEqual([]);

    // merged and published: the grid with its values, moved and centred column, and the cards with their links
    await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${number}/merge`);
    const org = acme.organization.id;
    const site = await v1(acme.token, 'POST', `/orgs/${org}/sites`, { title: 'Shop site', spaces: [space] });
    const published = await v1(acme.token, 'POST', `/orgs/${org}/sites/${site.id}/publish`);
    const reader = await browser.newPage();
    await reader.goto(`${p.url}${new URL(published.urls.published).pathname}/prices`);
    const drawn = reader.locator('main table').first();
    await drawn.waitFor();
    expect(await drawn.locator('thead th').allTextContents()).toEqual([
      'Name',
      'Notes',
      'Price',
      'In stock',
      'Stars',
      'Site',
    ]);
    const cells = await drawn
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
    expect(cells.map((r) => r.slice(0, 5))).toEqual([
      ['Tea', 'Green', '3', '☑', '4'],
      ['Cake', 'Lemon', '4.5', '☑', '3'],
    ]);
    expect(cells[1]![5]).toContain('example.com/cake');
    expect(await drawn.locator('tbody td.align-center').allTextContents()).toEqual(['Green', 'Lemon']);
    const cards = reader.locator('main ul.cards');
    expect(await cards.getAttribute('class')).toContain('cards-large');
    expect(await cards.locator('a.card').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      'https://example.com/start',
      'https://example.com/faq',
    ]);
    expect(await cards.locator('a.card').allTextContents()).toEqual([
      expect.stringContaining('Getting started'),
      expect.stringContaining('Questions'),
    ]);
    await reader.screenshot({ path: join(SHOTS, 'quire-app-editor-table-values-published.png'), fullPage: true });
    await reader.close();

    expect(violations).toEqual([]);
    expect(narrow.violations).toEqual([]);
  });
});
