import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, openTable, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// GitBook's tables beyond text (docs/app.md, "Tables"): the values of a grid's number, checkbox, rating and link
// columns drawn in the editor and set from the table's settings with the keys, a column moved and aligned, a second
// table switched to cards (its link column the cards' link); the change request's document read through /v1, then the
// published page showing all of it. A cards view edited as cards by keyboard (typed in place, a card added with Tab
// and deleted with its key), read on the published page.
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

const TEAM = {
  object: 'block',
  type: 'table',
  data: {
    view: { type: 'cards', columns: ['name', 'about', 'link'], cardSize: 'medium', targetDefinition: 'link' },
    records: {
      t1: {
        orderIndex: 'a0',
        values: { name: 't1', about: 't2', link: { kind: 'url', url: 'https://example.com/ada' } },
      },
      t2: { orderIndex: 'a1', values: { name: 't3', about: 't4' } },
    },
    definition: {
      name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
      about: { id: 'about', title: 'About', type: 'text', textAlignment: 'left' },
      link: { id: 'link', title: 'Link', type: 'content-ref' },
    },
  },
  fragments: [fragment('t1', 'Ada'), fragment('t2', 'Engines'), fragment('t3', 'Babbage'), fragment('t4', 'Gears')],
  isVoid: true,
};

/** The words of the elements' text that are drawn on more than one line (broken mid-word). */
function brokenWords(els: Element[]): string[] {
  const out: string[] = [];
  for (const el of els) {
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const value = text.textContent ?? '';
    for (const m of value.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}

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
    const { editor, table, header, rows } = await openTable(page, `${base}/prices?edit`, 'Prices');
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
    // the wide grid scrolls in its box: no header word is broken mid-word ("Na me")
    expect(
      await narrow.page.locator('.editor-content table').first().locator('thead th').evaluateAll(brokenWords),
    ).toEqual([]);
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

  it('edits a cards view as cards by keyboard: the published page shows the cards', { timeout: 240_000 }, async () => {
    const team = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Team' })).id;
    const content = { object: 'document', data: {}, nodes: [para('Who we are.'), TEAM] };
    await changeRequest(team, 'People', [
      { operation: 'insert_page', title: 'People', document: { document: content } },
    ]).then((cr) => v1(acme.token, 'POST', `/spaces/${team}/change-requests/${cr.id}/merge`));
    const base = `${p.url}/o/${acme.organization.id}/s/${team}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/people?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of People' });
    await editor.waitFor();
    // drawn as cards: a list of cards, each its fields under their titles and where it links to
    const list = editor.getByRole('list', { name: 'Cards' });
    const cards = list.getByRole('listitem');
    // what each card shows: its fields (a title drawn above its text) and where it links to
    const texts = () =>
      cards.evaluateAll((li) =>
        li.map((c) =>
          Array.from(c.children)
            .filter((td) => getComputedStyle(td).display !== 'none')
            .map((td) => {
              const title = getComputedStyle(td, '::before').content;
              return `${title === 'none' ? '' : `${JSON.parse(title)} `}${td.textContent}`;
            })
            .join(' '),
        ),
      );
    expect(await cards.count()).toBe(2);
    expect(await texts()).toEqual([
      'Name Ada About Engines Links to https://example.com/ada',
      'Name Babbage About Gears',
    ]);
    expect(await cards.first().getAttribute('aria-label')).toBe('Card 1: Ada');
    expect(await editor.locator('thead').isHidden()).toBe(true);
    expect(await cards.first().getByRole('group', { name: 'About' }).textContent()).toBe('Engines');

    // typed in place; Tab goes from field to field, card to card, and from the last field adds a card
    await editor.getByText('Ada', { exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.press('End');
    await page.keyboard.type(' and notes');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const notice = page.locator('.upload-status');
    await expect.poll(() => notice.textContent()).toBe('Card added after.');
    await page.keyboard.type('Grace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Compilers');
    await expect.poll(() => cards.count()).toBe(3);
    expect((await texts())[2]).toBe('Name Grace About Compilers');
    // the settings speak of cards; a card removed with its key
    const settings = page.getByRole('region', { name: 'Table settings' });
    await settings.getByRole('button', { name: 'Add card after' }).waitFor();
    await editor.getByText('Babbage', { exact: true }).click();
    await page.keyboard.press('Alt+Shift+Backspace');
    await expect.poll(() => notice.textContent()).toBe('Card deleted.');
    await expect
      .poll(texts)
      .toEqual([
        'Name Ada Lovelace About Engines and notes Links to https://example.com/ada',
        'Name Grace About Compilers',
      ]);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-cards.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-cards-dark.png'), fullPage: true });

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await page.waitForURL(/\/~\/changes\/\d+\/people\?edit$/);
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const path = `/spaces/${team}/change-requests/${number}/content/path/people?format=document`;
    await expect.poll(() => page.locator('.save-status').textContent(), { timeout: 20_000 }).toBe('Saved');
    await expect
      .poll(async () => Object.keys((await v1(acme.token, 'GET', path)).document.nodes[1].data.records).length, {
        timeout: 20_000,
      })
      .toBe(2);
    const read = (await v1(acme.token, 'GET', path)).document.nodes[1];
    // (the stored page names its columns c1, c2…)
    expect(read.data.view.type).toBe('cards');
    expect(read.data.definition[read.data.view.targetDefinition].title).toBe('Link');

    // 375 px, dark: one card across, nothing wider than the screen
    const narrow = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 800 },
      colorScheme: 'dark',
    });
    await narrow.page.goto(`${base}/~/changes/${number}/people?edit`);
    const narrowEditor = narrow.page.getByRole('textbox', { name: 'Content of People' });
    await narrowEditor.getByText('Grace', { exact: true }).waitFor();
    const narrowCards = narrowEditor.getByRole('list', { name: 'Cards' }).getByRole('listitem');
    await expect.poll(() => narrowCards.count()).toBe(2);
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(narrow.page)).toEqual([]);
    await narrowEditor.getByText('Grace', { exact: true }).click();
    await narrow.page.screenshot({ path: join(SHOTS, 'quire-app-editor-cards-375-dark.png'), fullPage: true });
    await narrow.page.emulateMedia({ colorScheme: 'light' });
    await narrow.page.screenshot({ path: join(SHOTS, 'quire-app-editor-cards-375.png'), fullPage: true });

    // merged and published: the site draws the edited cards
    await v1(acme.token, 'POST', `/spaces/${team}/change-requests/${number}/merge`);
    const org = acme.organization.id;
    const site = await v1(acme.token, 'POST', `/orgs/${org}/sites`, { title: 'Team site', spaces: [team] });
    const published = await v1(acme.token, 'POST', `/orgs/${org}/sites/${site.id}/publish`);
    const reader = await browser.newPage();
    await reader.goto(`${p.url}${new URL(published.urls.published).pathname}/people`);
    const drawn = reader.locator('main ul.cards > li');
    await drawn.first().waitFor();
    expect(
      await drawn.evaluateAll((li) =>
        li.map((c) =>
          Array.from(c.querySelectorAll('.card-field'), (f) =>
            Array.from(f.childNodes, (n) => n.textContent).join(' '),
          ).join(' '),
        ),
      ),
    ).toEqual(['Name Ada Lovelace About Engines and notes', 'Name Grace About Compilers']);
    expect(await drawn.first().locator('a.card').getAttribute('href')).toBe('https://example.com/ada');
    await reader.close();
    expect(violations).toEqual([]);
    expect(narrow.violations).toEqual([]);
  });
});
