import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// The organization's OpenAPI specifications and integrations in the app (screens/openapi/, screens/integrations/,
// OpenAPISpec.tsx, Integration.tsx, InstallationSpaces.tsx, the `/` menu's integration block), and the page tree scrolling while a row is dragged near the window's edge
// (screens/tree/autoscroll.ts).
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

// The specifications are fetched from the server below (a loopback address) and processed every 200 ms.
const { p, acme, sessions, v1, changeRequest } = useMailedInstance({
  QUIRE_ALLOW_PRIVATE_FETCH: '1',
  QUIRE_OPENAPI_SCAN_EVERY_MS: '200',
});
const api = (method: string, path: string, body?: unknown) => v1(acme.token, method, path, body);

/** An OpenAPI document: `title`, `version`, one `GET /{path}` operation per path. */
const specText = (title: string, version: string, paths: string[]) =>
  [
    'openapi: 3.0.0',
    `info: { title: ${title}, version: "${version}" }`,
    'paths:',
    ...paths.flatMap((path) => [
      `  /${path}:`,
      '    get:',
      `      summary: List the ${path}`,
      '      responses:',
      '        "200": { description: OK }',
    ]),
    '',
  ].join('\n');

/** The document the instance fetches by URL: changed by the test between two fetches. */
let served = specText('Pets', '1', ['pets']);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/yaml' });
  res.end(served);
});
beforeAll(() => new Promise<void>((done) => server.listen(0, '127.0.0.1', done)));
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** How long a specification may take to be processed (a parsing thread; slow on a loaded 2-core machine). */
const PROCESSED = 60_000;

/** The page at 375 px, dark: no horizontal scrolling, axe-core clean, a screenshot. */
async function phone(page: Page, name: string) {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `admin-${name}-375.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!hasChromium)('a lead manages OpenAPI specifications and integrations in the app', () => {
  const browser = useChromium();
  const org = () => acme.organization.id;

  it('adds a specification from a URL, checks it for updates, gives it a file, deletes one', {
    timeout: 300_000,
  }, async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pets.yaml`;
    const { page, violations } = await sessions.open(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org()}`);
    await page.getByRole('link', { name: 'OpenAPI specifications' }).click();
    await page.getByRole('heading', { name: 'OpenAPI specifications', level: 1 }).waitFor();
    await page.getByText('No specification yet.').waitFor();

    // From a URL: the screen of the new specification, processed, its first version described.
    await page.getByLabel('Slug (lowercase letters, digits and dashes)').fill('pets');
    await page.getByLabel('URL of the document (http or https)').fill(url);
    await page.getByRole('button', { name: 'Add specification' }).click();
    await page.waitForURL(`**/o/${org()}/openapi/pets`);
    await page.locator('dd', { hasText: /^Processed$/ }).waitFor({ timeout: PROCESSED });
    await page.getByText('The latest version describes Pets 1: 1 operation.').waitFor();
    const versions = page.getByRole('list', { name: 'Versions' }).getByRole('listitem');
    expect(await versions.count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'admin-openapi-spec-1280.png'), fullPage: true });

    // The document changed at its URL: "Check for updates" stores a second version.
    served = specText('Pets', '2', ['pets', 'owners']);
    await page.getByRole('button', { name: 'Check for updates' }).click();
    await page.getByText('The latest version describes Pets 2: 2 operations.').waitFor({ timeout: PROCESSED });
    await expect.poll(() => versions.count()).toBe(2);
    const listed = await api('GET', `/orgs/${org()}/openapi/pets/versions`);
    expect(listed.items).toHaveLength(2);
    expect(await versions.first().textContent()).toContain('(latest)');

    // A new source: a file's text (the URL is gone, a third version).
    await page.getByLabel('From a file on this computer').check();
    await page.getByLabel('OpenAPI document (YAML or JSON)').setInputFiles({
      name: 'store.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(specText('Store <b>', '3', ['orders', 'items', 'carts'])),
    });
    await page.getByRole('button', { name: 'Save the new source' }).click();
    await page.getByText('New source saved: the specification is processed again.').waitFor();
    await page.getByText('Given as text').waitFor();
    await page.getByText('The latest version describes Store <b> 3: 3 operations.').waitFor({ timeout: PROCESSED });
    const spec = await api('GET', `/orgs/${org()}/openapi/pets`);
    expect([spec.sourceURL, spec.processingState]).toEqual([undefined, 'complete']);
    expect(await page.getByRole('button', { name: 'Check for updates' }).count()).toBe(0);

    // From a file on the list screen: the slug follows its name; a document that is not OpenAPI says why.
    await page.getByRole('link', { name: '← All OpenAPI specifications' }).click();
    await page.getByRole('list', { name: 'Specifications' }).getByRole('link', { name: 'pets' }).waitFor();
    await page.getByLabel('From a file on this computer').check();
    await page.getByLabel('OpenAPI document (YAML or JSON)').setInputFiles({
      name: 'Orders API.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"hello": "world"}'),
    });
    await expect
      .poll(() => page.getByLabel('Slug (lowercase letters, digits and dashes)').inputValue())
      .toBe('orders-api');
    await page.getByRole('button', { name: 'Add specification' }).click();
    await page.waitForURL('**/openapi/orders-api');
    await page.getByText('Processed: the last processing failed (PARSE_ERROR)').waitFor({ timeout: PROCESSED });
    await page.getByRole('heading', { name: /Errors of the last processing/ }).waitFor();
    await page.getByText('No version yet').waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'admin-openapi-failed-1280.png'), fullPage: true });

    // Deleted after a confirmation ("Keep" keeps it).
    await page.getByRole('button', { name: 'Delete orders-api' }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    await page.getByRole('button', { name: 'Delete orders-api' }).click();
    await page.getByRole('button', { name: 'Confirm delete orders-api' }).click();
    await page.waitForURL(`**/o/${org()}/openapi`);
    const items = page.getByRole('list', { name: 'Specifications' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(1);
    expect((await api('GET', `/orgs/${org()}/openapi`)).items.map((s: { slug: string }) => s.slug)).toEqual(['pets']);
    await page.getByText('Given as text').waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'admin-openapi-list-1280.png'), fullPage: true });
    await phone(page, 'openapi-list');
    await page.goto(`${p.url}/o/${org()}/openapi/pets`);
    await page.getByText('The latest version describes Store <b> 3').waitFor();
    await phone(page, 'openapi-spec');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('publishes, installs, configures, uninstalls, republishes and unpublishes integrations', {
    timeout: 120_000,
  }, async () => {
    // One with a configuration form, published through the API (the app's form has no configuration editor).
    await api('POST', '/integrations/weather', {
      title: 'Weather',
      description: 'The forecast in a block',
      script: 'export default {}',
      scopes: ['space:content:read'],
      organization: org(),
      configurations: {
        account: {
          properties: {
            city: { type: 'string', title: 'City', description: 'Where the forecast is for' },
            units: { type: 'string', title: 'Units', enum: ['metric', 'imperial'] },
            alerts: { type: 'boolean', title: 'Send alerts' },
          },
          required: ['city'],
        },
      },
    });
    const { page, violations } = await sessions.open(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org()}`);
    await page.getByRole('link', { name: 'Integrations', exact: true }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();

    // Published from the app: its fields read back through the API.
    await page.getByText('Publish an integration', { exact: true }).click();
    await page.getByLabel(/^Name \(letters/).fill('status-badge');
    await page.getByLabel('Title (2 to 30 characters)').fill('Status badge');
    await page.getByLabel('Description (at most 100 characters)').fill('Shows <b>status</b>');
    await page.getByLabel('Who sees it').selectOption('unlisted');
    await page.getByLabel('Where it can be installed').selectOption('space');
    await page.getByLabel("Read spaces' content").check();
    await page.getByLabel('Read OpenAPI specifications').check();
    await page.getByLabel('Script file (JavaScript)').setInputFiles({
      name: 'index.js',
      mimeType: 'text/javascript',
      buffer: Buffer.from('export default createIntegration({ events: {} });\n'),
    });
    await expect.poll(() => page.getByLabel('Script (or paste it here)').inputValue()).toContain('createIntegration');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.waitForURL(`**/o/${org()}/integrations/status-badge`);
    await page.getByRole('heading', { name: 'Integration Status badge' }).waitFor();
    await page.getByText('Shows <b>status</b>').waitFor();
    const badge = await api('GET', '/integrations/status-badge');
    expect([badge.version, badge.visibility, badge.target, badge.scopes]).toEqual([
      1,
      'unlisted',
      'space',
      ['space:content:read', 'openapi:read'],
    ]);

    // Weather: installed, configured, its fields read back; then uninstalled after a confirmation.
    await page.getByRole('link', { name: '← The integrations of the organization' }).click();
    await page.getByRole('link', { name: 'Weather', exact: true }).click();
    await page.getByText('Not installed here.').waitFor();
    await page.getByRole('button', { name: 'Install Weather' }).click();
    await page.locator('dd', { hasText: /^active$/ }).waitFor();
    await page.getByLabel('City (required)').fill('Paris <b>');
    await page.getByLabel('Units').selectOption('imperial');
    await page.getByLabel('Send alerts').check();
    await page.getByLabel('Spaces it manages').selectOption('selected');
    await page.getByRole('button', { name: 'Save the configuration' }).click();
    await page.getByText('Configuration saved.').waitFor();
    const [installed] = (await api('GET', '/integrations/weather/installations')).items;
    expect([installed.configuration, installed.space_selection, installed.site_selection]).toEqual([
      { city: 'Paris <b>', units: 'imperial', alerts: true },
      'selected',
      'all',
    ]);
    await page.locator('dd', { hasText: 'a selection (0)' }).waitFor();
    expect(await page.getByLabel('City (required)').inputValue()).toBe('Paris <b>');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'admin-integration-1280.png'), fullPage: true });
    await phone(page, 'integration');
    // The list: Weather installed here, Status badge published here.
    await page.getByRole('link', { name: '← The integrations of the organization' }).click();
    await page.getByRole('list', { name: 'Installed in Acme' }).getByRole('link', { name: 'Weather' }).waitFor();
    await page
      .getByRole('list', { name: 'Published by Acme, not installed' })
      .getByRole('link', { name: 'Status badge' })
      .waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'admin-integrations-1280.png'), fullPage: true });
    await phone(page, 'integrations');
    await page.getByRole('link', { name: 'Weather', exact: true }).click();
    await page.getByRole('button', { name: 'Uninstall Weather' }).click();
    await page.getByRole('button', { name: 'Confirm uninstall Weather' }).click();
    await page.getByRole('button', { name: 'Install Weather' }).waitFor();
    await expect.poll(async () => (await api('GET', '/integrations/weather/installations')).items).toEqual([]);

    // Status badge: a new version (the script again), then unpublished after a confirmation.
    await page.goto(`${p.url}/integrations/status-badge`);
    await page.getByRole('link', { name: 'Status badge in Acme' }).waitFor();
    await page.getByText('Publish a new version', { exact: true }).click();
    await page.getByLabel('Title (2 to 30 characters)').fill('Status badges');
    await page.getByLabel('Script (or paste it here)').fill('export default {};');
    await page.getByRole('button', { name: 'Publish version 2' }).click();
    await page.getByText('Version 2 published.').waitFor();
    await page.getByRole('heading', { name: 'Integration Status badges' }).waitFor();
    const v2 = await api('GET', '/integrations/status-badge');
    expect([v2.version, v2.title, v2.visibility, v2.scopes]).toEqual([
      2,
      'Status badges',
      'unlisted',
      ['space:content:read', 'openapi:read'],
    ]);
    await page.getByRole('button', { name: 'Unpublish Status badges and remove all its installations' }).click();
    await page
      .getByRole('button', { name: 'Confirm unpublish Status badges and remove all its installations' })
      .click();
    await page.waitForURL(`**/o/${org()}/integrations`);
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Status badges' }).count()).toBe(0);
    await expect(api('GET', '/integrations/status-badge')).rejects.toThrow(/404/);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('scrolls the page tree while a page is dragged near the bottom or the top of the window', {
    timeout: 90_000,
  }, async () => {
    const client = p.client(acme.token);
    const space = (await client.orgs.createSpace(org(), { title: 'Long' })).data;
    const cr = (await client.spaces.createChangeRequest(space.id, { subject: 'Many pages' })).data;
    const titles = Array.from({ length: 40 }, (_, i) => `P${String(i + 1).padStart(2, '0')}`);
    await client.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: titles.map((title) => ({ operation: 'insert_page', title, document: { markdown: `${title}.` } })),
    } as never);
    const order = async () =>
      ((await client.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages as { title: string }[]).map(
        (x) => x.title,
      );
    const { page, violations } = await sessions.open(browser, 'ann@acme.io', {
      viewport: { width: 1280, height: 600 },
    });
    await page.goto(`${p.url}${new URL(cr.urls.app).pathname}`);
    await page.getByRole('link', { name: 'P40', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Merge change request #1' }).waitFor();
    const row = (name: string) => page.locator('.pages .row', { has: page.getByRole('link', { name, exact: true }) });
    const scrollY = () => page.evaluate(() => window.scrollY);
    const bottom = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(bottom).toBeGreaterThan(300);
    expect(await scrollY()).toBe(0);

    // Pressed on P01 and held near the window's bottom edge: the window scrolls down to the end, P40 comes into view.
    const a = (await row('P01').boundingBox())!;
    await page.mouse.move(a.x + 60, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + 60, 590, { steps: 5 });
    await expect.poll(scrollY).toBeGreaterThan(0);
    await expect.poll(scrollY, { timeout: 10_000 }).toBe(bottom);
    await page.screenshot({ path: join(SHOTS, 'admin-tree-autoscroll-1280.png') });
    // Let go on P40's lower third: P01 goes last.
    const b = (await row('P40').boundingBox())!;
    await page.mouse.move(b.x + 60, b.y + b.height * 0.85, { steps: 3 });
    await expect.poll(() => row('P40').getAttribute('data-drop')).toBe('after');
    await page.mouse.up();
    await expect.poll(order).toEqual([...titles.slice(1), 'P01']);

    // And back: pressed on P01 (now last) and held near the top edge, the window scrolls up to the start.
    await page.getByRole('link', { name: 'P01', exact: true }).waitFor();
    const c = (await row('P01').boundingBox())!;
    await page.mouse.move(c.x + 60, c.y + c.height / 2);
    await page.mouse.down();
    await page.mouse.move(c.x + 60, 4, { steps: 5 });
    await expect.poll(scrollY, { timeout: 10_000 }).toBe(0);
    const d = (await row('P02').boundingBox())!;
    await page.mouse.move(d.x + 60, d.y + d.height * 0.15, { steps: 3 });
    await expect.poll(() => row('P02').getAttribute('data-drop')).toBe('before');
    // Away from the edges nothing scrolls.
    expect(await scrollY()).toBe(0);
    await page.mouse.up();
    await expect.poll(order).toEqual(titles);

    // The organization tree (the same drag): S01 held near the bottom edge scrolls the window, dropped after S24.
    const names = Array.from({ length: 24 }, (_, i) => `S${String(i + 1).padStart(2, '0')}`);
    for (const title of names) await client.orgs.createSpace(org(), { title });
    const spaces = async () =>
      (await client.orgs.listSpacesInOrganizationById(org(), { limit: 100 })).data.items.map((x) => x.title);
    await page.goto(`${p.url}/o/${org()}`);
    await page.getByRole('link', { name: 'S24', exact: true }).waitFor();
    const node = (name: string) =>
      page.locator('.content-tree .row', { has: page.getByRole('link', { name, exact: true }) });
    const end = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(end).toBeGreaterThan(200);
    const e = (await node('S01').boundingBox())!;
    await page.mouse.move(e.x + 60, e.y + e.height / 2);
    await page.mouse.down();
    await page.mouse.move(e.x + 60, 596, { steps: 5 });
    await expect.poll(scrollY, { timeout: 10_000 }).toBe(end);
    const f = (await node('S24').boundingBox())!;
    await page.mouse.move(f.x + 60, f.y + f.height * 0.85, { steps: 3 });
    await expect.poll(() => node('S24').getAttribute('data-drop')).toBe('after');
    await page.mouse.up();
    await expect.poll(spaces).toEqual(['Long', ...names.slice(1), 'S01']);
    expect(violations).toEqual([]);
    await page.close();
  });

  it("installs an integration on a space, then inserts its block from the space's `/` menu", {
    timeout: 240_000,
  }, async () => {
    await api('POST', '/integrations/charts', {
      title: 'Charts',
      description: 'Live charts',
      script: 'export default {}',
      scopes: ['space:content:read'],
      organization: org(),
      target: 'space',
      blocks: [{ id: 'chart', title: 'Chart <live>', description: 'A live chart' }],
    });
    const space = (await api('POST', `/orgs/${org()}/spaces`, { title: 'Chart docs' })).id;
    await api('POST', `/orgs/${org()}/spaces`, { title: 'Other docs' });
    await api('POST', `/orgs/${org()}/sites`, { title: 'Chart site' });
    await changeRequest(space, 'Start', [
      { operation: 'insert_page', title: 'Numbers', document: { markdown: 'The numbers.\n' } },
    ]).then((cr) => api('POST', `/spaces/${space}/change-requests/${cr.id}/merge`));

    const { page, violations } = await sessions.open(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org()}/integrations/charts`);
    // The owner is shown by its title (Ann is a member of Acme).
    await page.locator('dd').getByRole('link', { name: 'Acme' }).waitFor();
    await page
      .getByText('It is made for spaces: install it here, then choose the spaces it is installed on.')
      .waitFor();
    await page.getByRole('button', { name: 'Install Charts' }).click();
    const spaces = page.getByRole('region', { name: 'Spaces', exact: true });
    await spaces.getByText('Not installed on any space of its own.').waitFor();
    const add = spaces.getByRole('combobox', { name: 'Add a space' });
    await expect
      .poll(() => add.locator('option').allTextContents())
      .toEqual(expect.arrayContaining(['Choose…', 'Chart docs', 'Other docs']));
    await add.selectOption({ label: 'Chart docs' });
    await spaces.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Charts is installed on Chart docs.').waitFor();
    await page.locator('dd', { hasText: 'a selection (1)' }).waitFor();
    await spaces.getByRole('list').getByRole('link', { name: 'Chart docs' }).waitFor();
    await expect.poll(() => add.locator('option').allTextContents()).not.toContain('Chart docs');
    expect(await add.locator('option').allTextContents()).toContain('Other docs');
    // And on one site of the organization.
    const sites = page.getByRole('region', { name: 'Sites', exact: true });
    await sites.getByText('Not installed on any site of its own.').waitFor();
    await sites.getByRole('combobox', { name: 'Add a site' }).selectOption({ label: 'Chart site' });
    await sites.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Charts is installed on Chart site.').waitFor();
    await sites.getByRole('list').getByRole('link', { name: 'Chart site' }).waitFor();
    const [installation] = (await api('GET', '/integrations/charts/installations')).items;
    expect([installation.space_selection, installation.spaces, installation.site_selection]).toEqual([
      'selected',
      1,
      'selected',
    ]);
    expect((await api('GET', `/spaces/${space}/integration-blocks`)).map((i: { name: string }) => i.name)).toEqual([
      'charts',
    ]);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'admin-integration-spaces-1280.png'), fullPage: true });
    await phone(page, 'integration-spaces');

    // In the space's editor: "Integration block…" lists the installed blocks; the one chosen is drawn on the page.
    await page.goto(`${p.url}/o/${org()}/s/${space}/numbers?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Numbers' });
    await editor.getByText('The numbers.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Live.');
    await page.waitForURL(/\/~\/changes\/\d+\/numbers\?edit$/);
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
    await editor.getByText('The numbers. Live.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/integration');
    await page
      .getByRole('listbox', { name: 'Insert a block' })
      .getByRole('option', { name: /Integration block/ })
      .waitFor();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Insert an integration block' });
    const block = dialog.getByRole('combobox', { name: /^Block/ });
    await expect
      .poll(() => block.locator('option').allTextContents())
      .toEqual(['Choose…', 'Chart <live> · A live chart']);
    expect(await dialog.getByRole('button', { name: 'Insert' }).isDisabled()).toBe(true);
    await block.selectOption({ label: 'Chart <live> · A live chart' });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'admin-insert-integration-block.png') });
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => editor.locator('.gb-integration').textContent()).toBe('Integration: charts');
    expect(await page.locator('.upload-status').textContent()).toBe('Inserted the block Chart <live> of charts.');
    await page.screenshot({ path: join(SHOTS, 'admin-inserted-integration-block.png'), fullPage: true });
    const number = /\/~\/changes\/(\d+)\//.exec(page.url())![1]!;
    const path = `/spaces/${space}/change-requests/${number}/content/path/numbers?format=document`;
    const inserted = async () =>
      (await api('GET', path)).document.nodes.find((n: { type: string }) => n.type === 'integration');
    await expect
      .poll(inserted, { timeout: 20_000 })
      .toMatchObject({ isVoid: true, data: { integration: 'charts', block: 'chart', props: {} } });

    // Removed from the space after a confirmation: the space's editors no longer get its blocks.
    await page.goto(`${p.url}/o/${org()}/integrations/charts`);
    await spaces.getByRole('button', { name: 'Remove Charts from Chart docs' }).click();
    await spaces.getByRole('button', { name: 'Confirm remove Charts from Chart docs' }).click();
    await page.getByText('Charts is removed from Chart docs.').waitFor();
    await spaces.getByText('Not installed on any space of its own.').waitFor();
    expect(await api('GET', `/spaces/${space}/integration-blocks`)).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });
});
