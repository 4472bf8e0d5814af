import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// The settings of the blocks that point at the organization's or the space's content (docs/app.md, "The editor"):
// an OpenAPI operation block's specification and operation, picked from the organization's specifications, and a
// reusable content block's content, picked from the space's; written into the change request, read through /v1,
// and the page opened again in the editor comes back as the same document. A button's label, style and target.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();

const PETS = `openapi: 3.0.0
info: { title: Pets, version: "1" }
paths:
  /pets:
    get: { summary: List the pets, responses: { "200": { description: ok } } }
    post: { summary: Add a pet, responses: { "201": { description: made } } }
`;
const STORE = `openapi: 3.0.0
info: { title: Store, version: "1" }
paths:
  /orders:
    get: { summary: List the orders, responses: { "200": { description: ok } } }
  /orders/{id}:
    delete: { summary: Cancel an order, responses: { "204": { description: gone } } }
`;

describe.skipIf(!hasChromium)('the editor: OpenAPI and reusable content blocks, in Chromium', () => {
  const browser = useChromium();
  let space: string;
  let notes: { id: string; title: string }[];

  beforeAll(async () => {
    const org = acme.organization.id;
    for (const [slug, text] of [
      ['pets', PETS],
      ['store', STORE],
    ] as const) {
      await v1(acme.token, 'POST', `/orgs/${org}/openapi`, { slug, source: { text } });
      // processed in the background: its operations are read from its latest version
      for (let i = 0; i < 100; i++) {
        const state = (await v1(acme.token, 'GET', `/orgs/${org}/openapi/${slug}`)).processingState;
        if (state === 'complete') break;
        if (i === 99) throw new Error(`the specification ${slug} stayed ${state}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    space = (await v1(acme.token, 'POST', `/orgs/${org}/spaces`, { title: 'API docs' })).id;
    await changeRequest(space, 'Notes', [
      { operation: 'insert_reusable_content', title: 'Upgrade note', document: { markdown: 'Upgrade first.\n' } },
      { operation: 'insert_reusable_content', title: 'Support <b>note</b>', document: { markdown: 'Ask us.\n' } },
    ]).then((cr) => v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`));
    notes = (await v1(acme.token, 'GET', `/spaces/${space}/content`)).reusableContents;
    const upgrade = notes.find((n) => n.title === 'Upgrade note')!;
    await changeRequest(space, 'Reference', [
      {
        operation: 'insert_page',
        title: 'Reference',
        document: {
          markdown: `The API.\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n\n{% include "${upgrade.id}" %}\n`,
        },
      },
      {
        operation: 'insert_page',
        title: 'Start',
        document: { markdown: 'Begin here: <a href="https://example.com/" class="button primary">Sign up</a> now.\n' },
      },
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'The guide.\n' } },
    ]).then((cr) => v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`));
  });

  it("picks an OpenAPI block's specification and operation and a reusable content block's content", {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/reference?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Reference' });
    await editor.waitFor();
    const block = editor.locator('.gb-openapi-operation');
    expect(await block.textContent()).toBe('OpenAPI: GET /pets');
    const notice = page.locator('.upload-status');

    // the OpenAPI block: its specification and operation as they are, then another of each
    await block.click();
    const settings = page.getByRole('region', { name: 'OpenAPI operation settings' });
    const spec = settings.getByRole('combobox', { name: /^Specification/ });
    const operation = settings.getByRole('combobox', { name: /^Operation/ });
    expect(await spec.inputValue()).toBe('pets');
    await expect
      .poll(() => operation.locator('option').allTextContents())
      .toEqual(['GET /pets · List the pets', 'POST /pets · Add a pet']);
    expect(await operation.inputValue()).toBe('get /pets');
    expect(await spec.locator('option').allTextContents()).toEqual(['pets', 'store']);
    await spec.selectOption('store');
    // the store's operations; the block keeps GET /pets until one is chosen, said to be missing from it
    await expect
      .poll(() => operation.locator('option').allTextContents())
      .toEqual([
        'GET /pets (not in the specification)',
        'GET /orders · List the orders',
        'DELETE /orders/{id} · Cancel an order',
      ]);
    // from the keyboard: the list has the focus, each ArrowDown picks the next operation
    await operation.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => block.textContent()).toBe('OpenAPI: GET /orders');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => block.textContent()).toBe('OpenAPI: DELETE /orders/{id}');
    expect(await notice.textContent()).toBe('The block shows DELETE /orders/{id} of store.');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-openapi-settings.png') });

    // the reusable content block: the space's contents by title (in its order, escaped), another one picked
    const include = editor.locator('.gb-reusable-content');
    expect(await include.textContent()).toBe('Reusable content: Upgrade note');
    await include.click();
    const rc = page.getByRole('region', { name: 'Reusable content settings' });
    const content = rc.getByRole('combobox', { name: /^Content/ });
    await expect
      .poll(() => content.locator('option').allTextContents())
      .toEqual(['Support <b>note</b>', 'Upgrade note']);
    const support = notes.find((n) => n.title === 'Support <b>note</b>')!;
    await content.selectOption(support.id);
    await expect.poll(() => notice.textContent()).toBe('The block includes Support <b>note</b>.');
    expect(await include.textContent()).toBe('Reusable content: Support <b>note</b>');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-reusable-settings.png') });

    // written into the change request, read through /v1
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const path = `/spaces/${space}/change-requests/${number}/content/path/reference?format=document`;
    const read = (await v1(acme.token, 'GET', path)).document;
    const [, api, reusable] = read.nodes;
    expect(api.data).toEqual({ ref: { kind: 'openapi', spec: 'store' }, path: '/orders/{id}', method: 'delete' });
    expect(reusable.data).toEqual({ ref: { kind: 'reusable-content', reusableContent: support.id } });

    // opened again in the editor: the settings show the choice, and the page is the same document
    await page.reload();
    await editor.waitFor();
    await editor.locator('.gb-openapi-operation').click();
    expect(await spec.inputValue()).toBe('store');
    await expect.poll(() => operation.inputValue()).toBe('delete /orders/{id}');
    await editor.locator('.gb-reusable-content').click();
    expect(await content.inputValue()).toBe(support.id);
    // a word typed after the first paragraph: the page written again from the editor keeps both blocks as they were
    await editor.getByText('The API.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Read on.');
    await expect
      .poll(async () => (await v1(acme.token, 'GET', path)).document.nodes[0].nodes[0].leaves[0].text, {
        timeout: 20_000,
      })
      .toBe('The API. Read on.');
    const again = (await v1(acme.token, 'GET', path)).document;
    expect(again.nodes.slice(1)).toEqual(read.nodes.slice(1));
    expect(violations).toEqual([]);
  });

  it("changes a button's label, style and target (a page, through the link dialog)", { timeout: 240_000 }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/start?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Start' });
    await editor.waitFor();
    const button = editor.locator('.gb-button');
    expect(await button.textContent()).toBe('Sign up');
    await button.click();
    const settings = page.getByRole('region', { name: 'Button settings' });
    expect(await settings.getByText('Links to:').textContent()).toBe('Links to: https://example.com/');
    const label = settings.getByRole('textbox', { name: 'Label' });
    const style = settings.getByRole('combobox', { name: /^Style/ });
    expect(await label.inputValue()).toBe('Sign up');
    expect(await style.inputValue()).toBe('primary');
    await label.fill('Read the <guide>');
    await expect.poll(() => button.textContent()).toBe('Read the <guide>');
    await style.selectOption('secondary');

    // the target: the link dialog, then the page picker, from the keyboard
    await settings.getByRole('button', { name: 'Change target…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Button target' });
    expect(await dialog.getByRole('button', { name: 'Remove link' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Link to a page…' }).click();
    const picker = page.getByRole('dialog', { name: 'Link "Read the <guide>" to a page' });
    await picker.getByRole('combobox').fill('Guide');
    await picker.getByRole('option', { name: /Guide/ }).waitFor();
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    const notice = page.locator('.upload-status');
    await expect.poll(() => notice.textContent()).toBe('The button "Read the <guide>" links to the page Guide.');
    await button.click();
    expect(await settings.getByText('Links to:').textContent()).toBe('Links to: the page Guide');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-button-settings.png') });
    // at 375 px and in the dark: the settings wrap, still readable and axe-clean
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await button.click();
    expect(await label.isVisible()).toBe(true);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-button-settings-375-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const where = `/spaces/${space}/change-requests/${number}/content`;
    const guide = await v1(acme.token, 'GET', `${where}/path/guide`);
    const read = (await v1(acme.token, 'GET', `${where}/path/start?format=document`)).document;
    const inline = read.nodes[0].nodes.find((n: { type?: string }) => n.type === 'button');
    expect(inline.data).toEqual({
      label: 'Read the <guide>',
      kind: 'secondary',
      ref: { kind: 'page', page: guide.id },
    });

    // opened again: the settings show it, and the page written again from the editor keeps the button as it was
    await page.reload();
    await editor.waitFor();
    await button.click();
    expect(await label.inputValue()).toBe('Read the <guide>');
    expect(await style.inputValue()).toBe('secondary');
    await editor.getByText('now.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Go.');
    await expect
      .poll(
        async () =>
          JSON.stringify((await v1(acme.token, 'GET', `${where}/path/start?format=document`)).document).includes('Go.'),
        { timeout: 20_000 },
      )
      .toBe(true);
    const again = (await v1(acme.token, 'GET', `${where}/path/start?format=document`)).document;
    expect(again.nodes[0].nodes.find((n: { type?: string }) => n.type === 'button')).toEqual(inline);
    expect(violations).toEqual([]);
  });
});
