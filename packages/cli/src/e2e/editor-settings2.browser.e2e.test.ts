import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// The `/` menu's OpenAPI operation, reusable content and button (each completed in a dialog), a button's size, icon
// and action, and the settings of drawings, integration blocks, OpenAPI schemas and webhooks and the older OpenAPI
// block (docs/app.md, "The editor"): done through the UI, read back through /v1, the inserted button and content
// read on the published site, and the page written again from the editor keeps every block as it was.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();

const PETS = `openapi: 3.1.0
info: { title: Pets, version: "1" }
paths:
  /pets:
    get: { summary: List the pets, responses: { "200": { description: ok } } }
    post: { summary: Add a pet, responses: { "201": { description: made } } }
webhooks:
  newPet:
    post: { summary: A pet was added, responses: { "200": { description: ok } } }
  petGone:
    delete: { summary: A pet left, responses: { "200": { description: ok } } }
components:
  schemas:
    Pet: { type: object }
    Order: { type: object }
`;
const SVG = (fill: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="${fill}"/></svg>`,
  );

describe.skipIf(!hasChromium)('the editor: the `/` menu and the settings of the remaining blocks, in Chromium', () => {
  const browser = useChromium();
  let space: string;
  let upgrade: string;

  beforeAll(async () => {
    const org = acme.organization.id;
    await v1(acme.token, 'POST', `/orgs/${org}/openapi`, { slug: 'pets', source: { text: PETS } });
    for (let i = 0; i < 100; i++) {
      const state = (await v1(acme.token, 'GET', `/orgs/${org}/openapi/pets`)).processingState;
      if (state === 'complete') break;
      if (i === 99) throw new Error(`the specification stayed ${state}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    space = (await v1(acme.token, 'POST', `/orgs/${org}/spaces`, { title: 'Pet docs' })).id;
    await changeRequest(space, 'Notes', [
      { operation: 'insert_reusable_content', title: 'Upgrade <note>', document: { markdown: 'Upgrade first.\n' } },
      { operation: 'insert_page', title: 'Reference', document: { markdown: 'The API.\n' } },
      {
        operation: 'insert_files',
        files: [{ name: 'sketch.svg', contentType: 'image/svg+xml', base64: SVG('red').toString('base64') }],
      },
    ]).then((cr) => v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`));
    const content = await v1(acme.token, 'GET', `/spaces/${space}/content`);
    upgrade = content.reusableContents.find((r: { title: string }) => r.title === 'Upgrade <note>').id;
    const sketch = (await v1(acme.token, 'GET', `/spaces/${space}/content/files`)).items[0].id;
    const block = (type: string, key: string, data: Record<string, unknown>, meta?: Record<string, unknown>) => ({
      object: 'block',
      type,
      key,
      isVoid: true,
      data,
      ...(meta ? { meta } : {}),
    });
    const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
    await changeRequest(space, 'Blocks', [
      {
        operation: 'insert_page',
        title: 'Blocks',
        document: {
          document: {
            object: 'document',
            data: {},
            nodes: [
              {
                object: 'block',
                type: 'paragraph',
                key: 'p1',
                data: {},
                nodes: [
                  text('Search: '),
                  {
                    object: 'inline',
                    type: 'button',
                    key: 'b1',
                    isVoid: true,
                    data: { label: 'Find', kind: 'primary', ref: { kind: 'url', url: 'https://example.com/' } },
                  },
                  text(' Star: '),
                  { object: 'inline', type: 'icon', key: 'ic1', isVoid: true, data: { icon: 'star' } },
                  text(''),
                ],
              },
              block('drawing', 'd1', { ref: { kind: 'file', file: sketch } }),
              block('integration', 'i1', { integration: 'mermaid', block: 'diagram', props: { content: 'A' } }),
              block('swagger', 's1', {
                ref: { kind: 'url', url: 'https://a.example/old.yaml' },
                path: '/pets',
                method: 'get',
              }),
              block('openapi-schemas', 'os1', { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet'] }),
              block('openapi-webhook', 'ow1', {
                ref: { kind: 'openapi', spec: 'pets' },
                name: 'newPet',
                method: 'post',
              }),
            ],
          },
        },
      },
    ]).then((cr) => v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`));
  });

  it('inserts an OpenAPI operation, reusable content and a button from the `/` menu; they are published', {
    timeout: 240_000,
  }, async () => {
    const org = acme.organization.id;
    const base = `${p.url}/o/${org}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/reference?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Reference' });
    await editor.getByText('The API.').waitFor();
    await editor.getByText('The API.').click();
    await page.keyboard.press('End');
    // the first change opens a draft change request (the screen moves to it) before the blocks are inserted
    await page.keyboard.type(' Read on.');
    await page.waitForURL(/\/~\/changes\/\d+\/reference\?edit$/);
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await editor.getByText('The API. Read on.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    const notice = page.locator('.upload-status');

    // an OpenAPI operation: the organization's specification, then one of its operations
    await page.keyboard.type('/openapi');
    await menu.getByRole('option', { name: /OpenAPI operation/ }).waitFor();
    await page.keyboard.press('Enter');
    const api = page.getByRole('dialog', { name: 'Insert an OpenAPI operation' });
    const insert = api.getByRole('button', { name: 'Insert' });
    expect(await insert.isDisabled()).toBe(true);
    await api.getByRole('combobox', { name: /^Specification/ }).selectOption('pets');
    const operation = api.getByRole('combobox', { name: /^Operation/ });
    await expect
      .poll(() => operation.locator('option').allTextContents())
      .toEqual(['Choose…', 'GET /pets · List the pets', 'POST /pets · Add a pet']);
    await operation.selectOption('post /pets');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-insert-openapi.png') });
    await insert.click();
    await api.waitFor({ state: 'detached' });
    await expect.poll(() => editor.locator('.gb-openapi-operation').textContent()).toBe('OpenAPI: POST /pets');
    expect(await notice.textContent()).toBe('Inserted POST /pets of pets.');

    // reusable content: the space's, by title (escaped)
    await editor.getByText('The API.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/reusable');
    await menu.getByRole('option', { name: /Reusable content/ }).waitFor();
    await page.keyboard.press('Enter');
    const rc = page.getByRole('dialog', { name: 'Insert reusable content' });
    const content = rc.getByRole('combobox', { name: /^Content/ });
    await expect.poll(() => content.locator('option').allTextContents()).toEqual(['Choose…', 'Upgrade <note>']);
    await content.selectOption(upgrade);
    await rc.getByRole('button', { name: 'Insert' }).click();
    await rc.waitFor({ state: 'detached' });
    await expect
      .poll(() => editor.locator('.gb-reusable-content').textContent())
      .toBe('Reusable content: Upgrade <note>');

    // a button: its label and style, then its target; an empty label is refused first
    await editor.getByText('The API.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Then ');
    await page.keyboard.type('/button');
    await menu.getByRole('option', { name: /Button/ }).waitFor();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Insert a button' });
    await dialog.getByRole('button', { name: 'Next: its target…' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe("Type the button's label.");
    await dialog.getByRole('textbox', { name: 'Label' }).fill('Sign <up>');
    await dialog.getByRole('combobox', { name: /^Style/ }).selectOption('secondary');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-insert-button.png') });
    await page.keyboard.press('Enter');
    const target = page.getByRole('dialog', { name: 'Button target' });
    await target.getByRole('textbox', { name: 'Web address' }).fill('example.com/signup');
    await page.keyboard.press('Enter');
    await target.waitFor({ state: 'detached' });
    const button = editor.locator('.gb-button');
    await expect.poll(() => button.textContent()).toBe('Sign <up>');

    // its size and icon: a name that is no icon is refused and said, a real one written
    await button.click();
    const settings = page.getByRole('region', { name: 'Button settings' });
    await settings.getByRole('combobox', { name: /^Size/ }).selectOption('large');
    const icon = settings.getByRole('textbox', { name: 'Icon' });
    await icon.fill('no-such-icon-here');
    await expect
      .poll(() => settings.getByRole('alert').textContent())
      .toBe('There is no icon named "no-such-icon-here".');
    await icon.fill('fa-solid fa-Rocket');
    await settings.locator('.page-icon').waitFor();
    expect(await settings.getByRole('alert').count()).toBe(0);
    // drawn in the editor as the site draws it: its kind and size, its icon before its label
    await expect
      .poll(() => button.getAttribute('class'))
      .toBe('gb-inline gb-button button button-secondary button-large');
    await button.locator('.inline-icon').waitFor();
    expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-button-icon.png') });

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const path = `/spaces/${space}/change-requests/${number}/content/path/reference?format=document`;
    await expect
      .poll(async () => (await v1(acme.token, 'GET', path)).document.nodes[0].nodes[1]?.data?.icon, { timeout: 20_000 })
      .toBe('rocket');
    const read = (await v1(acme.token, 'GET', path)).document;
    expect(read.nodes.slice(0, 3).map((n: { type: string }) => n.type)).toEqual([
      'paragraph',
      'reusable-content',
      'openapi-operation',
    ]);
    expect(read.nodes[0].nodes[1]).toMatchObject({
      type: 'button',
      data: {
        label: 'Sign <up>',
        kind: 'secondary',
        size: 'large',
        icon: 'rocket',
        ref: { kind: 'url', url: 'https://example.com/signup' },
      },
    });
    expect(read.nodes[1].data).toEqual({ ref: { kind: 'reusable-content', reusableContent: upgrade } });
    expect(read.nodes[2].data).toEqual({ ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'post' });
    expect(violations).toEqual([]);

    // merged and published: the button links to its address, the reusable content is drawn
    await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${number}/merge`);
    const site = await v1(acme.token, 'POST', `/orgs/${org}/sites`, { title: 'Pets', spaces: [space] });
    const published = await v1(acme.token, 'POST', `/orgs/${org}/sites/${site.id}/publish`);
    const home = String(published.urls.published)
      .replace(/^https?:\/\/[^/]+/, p.url)
      .replace(/\/$/, '');
    const html = await (await fetch(`${home}/reference`)).text();
    // drawn as written: its kind, size and icon
    expect(html).toContain(
      '<a class="button button-secondary button-large" href="https://example.com/signup">' +
        '<span class="inline-icon" aria-hidden="true" style="--icon:url(/_quire/icons/rocket.svg)"></span>Sign &lt;up&gt;</a>',
    );
    expect(html).toContain('Upgrade first.');
  });

  it('sets a button action, replaces a drawing, edits integration props, the older OpenAPI block, schemas, a webhook', {
    timeout: 240_000,
  }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    const before = (await v1(acme.token, 'GET', `/spaces/${space}/content/path/blocks?format=document`)).document;
    await page.goto(`${base}/blocks?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Blocks' });
    await editor.locator('.gb-button').waitFor();
    const notice = page.locator('.upload-status');

    // the button searches instead of linking
    await editor.locator('.gb-button').click();
    const buttonSettings = page.getByRole('region', { name: 'Button settings' });
    await buttonSettings.getByRole('combobox', { name: /^When clicked/ }).selectOption('search');
    await buttonSettings.getByRole('textbox', { name: /^Search query/ }).fill('install');
    expect(await buttonSettings.getByText('Does:').textContent()).toBe('Does: opens the search');
    // the first change opened a draft change request: the upload below goes into it
    await page.waitForURL(/\/~\/changes\/\d+\/blocks\?edit$/);
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });

    // the icon inline: a colour and another icon (a name that is no icon is refused)
    await editor.locator('.gb-icon').click();
    const iconSettings = page.getByRole('region', { name: 'Icon settings' });
    await iconSettings.getByRole('combobox', { name: /^Colour/ }).selectOption('blue');
    const iconName = iconSettings.getByRole('textbox', { name: 'Icon' });
    expect(await iconName.inputValue()).toBe('star');
    await iconName.fill('not an icon!');
    await iconSettings.getByRole('alert').waitFor();
    await iconName.fill('rocket');
    await iconSettings.locator('.page-icon').waitFor();
    await expect.poll(() => editor.locator('.gb-icon').textContent()).toBe(':rocket:');

    // the drawing's file replaced by an upload
    await editor.locator('.gb-drawing').click();
    const drawing = page.getByRole('region', { name: 'Drawing settings' });
    expect(await drawing.getByText('File:').textContent()).toBe('File: sketch.svg');
    const chooser = page.waitForEvent('filechooser');
    await drawing.getByRole('button', { name: 'Replace file…' }).click();
    await (await chooser).setFiles({ name: 'sketch-2.svg', mimeType: 'image/svg+xml', buffer: SVG('blue') });
    await expect
      .poll(() => notice.textContent(), { timeout: 30_000 })
      .toBe("Replaced the drawing's file with sketch-2.svg.");
    // a click right after the replacement may land while the editor redraws the block: clicked again until selected
    await expect
      .poll(
        async () => {
          await editor.locator('.gb-drawing').click();
          return drawing
            .getByText('File:')
            .textContent({ timeout: 2_000 })
            .catch(() => '');
        },
        { timeout: 30_000 },
      )
      .toBe('File: sketch-2.svg');

    // the integration: shown, its props as JSON (not JSON: refused and said; an object: written)
    await editor.locator('.gb-integration').click();
    const integration = page.getByRole('region', { name: 'Integration block settings' });
    expect(await integration.locator('.ref-target').first().textContent()).toBe(
      'Integration: mermaid · Block: diagram',
    );
    const props = integration.getByRole('textbox', { name: 'Props (JSON)' });
    await props.fill('{"content": ');
    expect(await integration.getByRole('alert').textContent()).toBe('Not JSON yet: the block keeps its last props.');
    await props.fill('{"content": "graph TD; A-->B"}');
    expect(await integration.getByRole('alert').count()).toBe(0);
    await integration.getByRole('checkbox', { name: 'Full width' }).check();

    // the older OpenAPI block: a URL that is no web address is refused, a real one written; its method changed
    await editor.locator('.gb-swagger').click();
    const swagger = page.getByRole('region', { name: 'OpenAPI block (older) settings' });
    const url = swagger.getByRole('textbox', { name: 'Specification URL' });
    expect(await url.inputValue()).toBe('https://a.example/old.yaml');
    await url.fill('javascript:alert(1)');
    await swagger.getByRole('button', { name: 'Use this URL' }).click();
    expect(await swagger.getByRole('alert').textContent()).toContain('is not a web address');
    await url.fill('api.example.com/openapi.yaml');
    await swagger.getByRole('button', { name: 'Use this URL' }).click();
    await expect
      .poll(() => notice.textContent())
      .toBe('The block reads its specification from https://api.example.com/openapi.yaml.');
    await editor.locator('.gb-swagger').click();
    await swagger.getByRole('textbox', { name: 'Method' }).fill('post');
    await swagger.getByRole('checkbox', { name: 'Open by default' }).check();

    // OpenAPI schemas: the specification's schemas as checkboxes, ungrouped, a title
    await editor.locator('.gb-openapi-schemas').click();
    const schemas = page.getByRole('region', { name: 'OpenAPI schemas settings' });
    const order = schemas.getByRole('checkbox', { name: 'Order' });
    await order.waitFor();
    expect(await schemas.getByRole('checkbox', { name: 'Pet' }).isChecked()).toBe(true);
    await order.check();
    await schemas.getByRole('checkbox', { name: 'Grouped' }).uncheck();
    await schemas.getByRole('textbox', { name: 'Title' }).fill('The <models>');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-openapi-schemas.png') });

    // an OpenAPI webhook: one of the specification's webhooks
    await editor.locator('.gb-openapi-webhook').click();
    const webhook = page.getByRole('region', { name: 'OpenAPI webhook settings' });
    const hook = webhook.getByRole('combobox', { name: /^Webhook/ });
    await expect
      .poll(() => hook.locator('option').allTextContents())
      .toEqual(['newPet (POST) · A pet was added', 'petGone (DELETE) · A pet left']);
    await hook.selectOption('delete petGone');
    await expect.poll(() => notice.textContent()).toBe('The block shows the webhook petGone (DELETE) of pets.');
    expect(await axe(page)).toEqual([]);
    // at 375 px and in the dark: the settings wrap, still readable and axe-clean
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await editor.locator('.gb-openapi-webhook').click();
    expect(await hook.isVisible()).toBe(true);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-webhook-375-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const where = `/spaces/${space}/change-requests/${number}/content`;
    const path = `${where}/path/blocks?format=document`;
    await expect
      .poll(async () => (await v1(acme.token, 'GET', path)).document.nodes[5].data.name, { timeout: 20_000 })
      .toBe('petGone');
    const read = (await v1(acme.token, 'GET', path)).document;
    const files = (await v1(acme.token, 'GET', `${where}/files`)).items as { id: string; name: string }[];
    const sketch2 = files.find((f) => f.name === 'sketch-2.svg')!.id;
    expect(read.nodes[0].nodes[1].data).toEqual({
      label: 'Find',
      kind: 'primary',
      action: { action: 'search', query: 'install' },
    });
    expect(read.nodes[0].nodes[3].data).toEqual({ icon: 'rocket', color: 'blue' });
    // each block keeps its key (whatever the API gave), and its data is what was set
    expect(read.nodes.map((n: { key?: string }) => n.key)).toEqual(before.nodes.map((n: { key?: string }) => n.key));
    expect(read.nodes.slice(1).map((n: { type: string; data: unknown }) => [n.type, n.data])).toEqual([
      ['drawing', { ref: { kind: 'file', file: sketch2 } }],
      [
        'integration',
        { integration: 'mermaid', block: 'diagram', props: { content: 'graph TD; A-->B' }, fullWidth: true },
      ],
      [
        'swagger',
        {
          ref: { kind: 'url', url: 'https://api.example.com/openapi.yaml' },
          path: '/pets',
          method: 'post',
          expanded: true,
        },
      ],
      [
        'openapi-schemas',
        { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet', 'Order'], grouped: false, title: 'The <models>' },
      ],
      ['openapi-webhook', { ref: { kind: 'openapi', spec: 'pets' }, name: 'petGone', method: 'delete' }],
    ]);

    // opened again: the page written again from the editor keeps every block as it was
    await page.reload();
    await editor.locator('.gb-button').waitFor();
    // The reloaded editor takes keys once it is editable and focused (a click before then can be lost: one CI run).
    await expect.poll(() => editor.getAttribute('contenteditable')).toBe('true');
    await editor.getByText('Search:').click();
    await expect.poll(() => editor.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Home');
    await page.keyboard.type('Now ');
    await expect.poll(() => editor.textContent()).toContain('Now Search:');
    await expect
      .poll(async () => (await v1(acme.token, 'GET', path)).document.nodes[0].nodes[0].leaves[0].text, {
        timeout: 20_000,
      })
      .toBe('Now Search: ');
    const again = (await v1(acme.token, 'GET', path)).document;
    expect(again.nodes.slice(1)).toEqual(read.nodes.slice(1));
    expect(again.nodes[0].nodes.slice(1)).toEqual(read.nodes[0].nodes.slice(1));
    expect(violations).toEqual([]);
  });

  it('inserts a drawing, OpenAPI schemas and an OpenAPI webhook from the `/` menu', { timeout: 240_000 }, async () => {
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${base}/reference?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Reference' });
    await editor.getByText('The API.').waitFor();
    await editor.getByText('The API.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' More.');
    await page.waitForURL(/\/~\/changes\/\d+\/reference\?edit$/);
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    const menu = page.getByRole('listbox', { name: 'Insert a block' });
    const notice = page.locator('.upload-status');
    const newLine = async () => {
      await editor.getByText('The API.').click();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
    };

    // a drawing: an uploaded picture, shown in the editor
    await newLine();
    const chooser = page.waitForEvent('filechooser');
    await page.waitForTimeout(200);
    await page.keyboard.type('/drawing');
    await menu.getByRole('option', { name: /Drawing/ }).waitFor();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'plan.svg', mimeType: 'image/svg+xml', buffer: SVG('blue') });
    await page.getByText('Uploaded plan.svg.').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => editor.locator('.gb-drawing img').evaluate((i: HTMLImageElement) => i.naturalWidth))
      .toBe(10);

    // OpenAPI schemas: the specification, then its schemas checked, not grouped
    await newLine();
    await page.keyboard.type('/schemas');
    await menu.getByRole('option', { name: /OpenAPI schemas/ }).waitFor();
    await page.keyboard.press('Enter');
    const schemas = page.getByRole('dialog', { name: 'Insert OpenAPI schemas' });
    const insertSchemas = schemas.getByRole('button', { name: 'Insert' });
    await schemas.getByRole('combobox', { name: /^Specification/ }).selectOption('pets');
    await schemas.getByRole('checkbox', { name: 'Order' }).check();
    await schemas.getByRole('checkbox', { name: 'Pet' }).check();
    await schemas.getByRole('checkbox', { name: 'Grouped' }).uncheck();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-insert-schemas.png') });
    await insertSchemas.click();
    await schemas.waitFor({ state: 'detached' });
    expect(await notice.textContent()).toBe('Inserted the schemas Pet, Order of pets.');

    // an OpenAPI webhook: the specification, then one of its webhooks
    await newLine();
    await page.keyboard.type('/webhook');
    await menu.getByRole('option', { name: /OpenAPI webhook/ }).waitFor();
    await page.keyboard.press('Enter');
    const hook = page.getByRole('dialog', { name: 'Insert an OpenAPI webhook' });
    await hook.getByRole('combobox', { name: /^Specification/ }).selectOption('pets');
    const hooks = hook.getByRole('combobox', { name: /^Webhook/ });
    await expect
      .poll(() => hooks.locator('option').allTextContents())
      .toEqual(['Choose…', 'newPet (POST) · A pet was added', 'petGone (DELETE) · A pet left']);
    await hooks.selectOption('delete petGone');
    await hook.getByRole('button', { name: 'Insert' }).click();
    await hook.waitFor({ state: 'detached' });
    await expect.poll(() => editor.locator('.gb-openapi-webhook').textContent()).toBe('OpenAPI webhook: petGone');
    await page.screenshot({ path: join(SHOTS, 'quire-app-editor-inserted-openapi-blocks.png'), fullPage: true });

    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const path = `/spaces/${space}/change-requests/${number}/content/path/reference?format=document`;
    const webhookOf = async () =>
      (await v1(acme.token, 'GET', path)).document.nodes.find((n: { type: string }) => n.type === 'openapi-webhook');
    await expect.poll(webhookOf, { timeout: 20_000 }).toBeTruthy();
    const nodes = (await v1(acme.token, 'GET', path)).document.nodes as { type: string; data: unknown }[];
    const file = (await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${number}/content/files`)).items.find(
      (f: { name: string }) => f.name === 'plan.svg',
    ).id;
    expect(nodes.slice(1, 4).map((n) => [n.type, n.data])).toEqual([
      ['openapi-webhook', { ref: { kind: 'openapi', spec: 'pets' }, name: 'petGone', method: 'delete' }],
      ['openapi-schemas', { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet', 'Order'], grouped: false }],
      ['drawing', { ref: { kind: 'file', file } }],
    ]);
    expect(violations).toEqual([]);
  });
});
