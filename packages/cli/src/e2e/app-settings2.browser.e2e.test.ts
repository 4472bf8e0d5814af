import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// More of the app's settings (docs/app.md): a site's sections and customization with its preview.
/** Where the screenshots go: QUIRE_SCREENSHOTS, else the system's temporary directory. */
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

/** Ann's instance and her signed-in pages (Ann: the organization's admin), watched for CSP violations and origins. */
const instance = useMailedInstance();
const { p, acme, signedIn } = instance;

/** A /v1 call with the admin's token (JSON in and out; throws on an error). */
const v1 = (method: string, path: string, body?: unknown) => instance.v1(acme.token, method, path, body);

/** Merges a change request of `space` with these content changes. */
async function merged(space: string, subject: string, changes: unknown[]) {
  const cr = await instance.changeRequest(space, subject, changes);
  await v1('POST', `/spaces/${space}/change-requests/${cr.id}/merge`);
  return cr;
}

describe.skipIf(!hasChromium)('a lead sets up a site in the app, in Chromium', () => {
  const browser = useChromium();

  it('adds a section and customizes the site, the preview showing the published site', {
    timeout: 180_000,
  }, async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const guide = (await api.orgs.createSpace(org, { title: 'Guide' })).data;
    await api.orgs.createSpace(org, { title: 'API <i>ref</i>' });
    const site = (await api.orgs.createSite(org, { title: 'Portal' })).data;
    await api.orgs.addSpaceToSite(org, site.id, { spaceId: guide.id });
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Portal', level: 1 }).waitFor();
    // Before publishing: no preview, a sentence saying when it comes.
    await page.getByText('The preview shows the published site').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    await page.getByRole('button', { name: 'Publish Portal', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish Portal' }).waitFor();

    // The site's space, then a section with another space (its title shown as text, not HTML).
    const spaces = page.getByRole('list', { name: 'Spaces of the site' });
    await spaces.getByText('Guide', { exact: true }).waitFor();
    await page.getByLabel('Space of the new section').selectOption({ label: 'API <i>ref</i>' });
    await page.getByLabel('Title of the section').fill('Reference <b>');
    await page.getByRole('button', { name: 'Add section' }).click();
    const sections = page.getByRole('list', { name: 'Sections' });
    await sections.getByText('Spaces: API <i>ref</i>').waitFor();
    const listed = async () =>
      (await p.get(acme.token, `/orgs/${org}/sites/${site.id}/sections`)).body.items as {
        id: string;
        title: string;
        path: string;
      }[];
    await expect.poll(async () => (await listed()).map((s) => s.title)).toContain('Reference <b>');
    // Rename it and change its path.
    await page.getByLabel('Title of section Reference <b>').fill('Reference');
    await page.getByLabel('Path of section Reference <b>').fill('reference');
    await page.getByRole('button', { name: 'Save section Reference <b>' }).click();
    await expect.poll(async () => (await listed()).find((s) => s.title === 'Reference')?.path).toBe('reference');

    // The preview: the published site in a frame, reloaded after a save that changes its title.
    const frame = page.frameLocator('iframe');
    await frame.locator('body').waitFor();
    await page.getByLabel('Title on the published site').fill('Acme Handbook');
    await page.getByLabel('Theme', { exact: true }).selectOption('bold');
    await page.getByLabel('In the light theme').fill('#aa3300');
    await page.getByLabel('Icon (an emoji; empty: none)').fill('📘');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();
    const saved = (await p.get(acme.token, `/orgs/${org}/sites/${site.id}/customization`)).body;
    expect([saved.title, saved.styling.theme, saved.styling.primaryColor.light, saved.favicon]).toEqual([
      'Acme Handbook',
      'bold',
      '#aa3300',
      { emoji: '📘' },
    ]);
    await frame.getByText('Acme Handbook').first().waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-customize.png'), fullPage: true });

    // Delete the section (with the confirmation step).
    await page.getByRole('button', { name: 'Delete section Reference' }).click();
    await page.getByRole('button', { name: 'Confirm delete section Reference' }).click();
    await expect.poll(async () => (await listed()).length).toBe(0);

    expect(seen.violations).toEqual([]);
    expect([...seen.origins]).toEqual([p.url]);

    // At 375 px, dark: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.getByRole('heading', { name: 'Portal', level: 1 }).waitFor();
    await frame.getByText('Acme Handbook').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-375.png'), fullPage: true });
    await page.close();
  });

  it("sets the organization's merge rules", { timeout: 90_000 }, async () => {
    const org = acme.organization.id;
    const { page } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org}/settings/members`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Merge rules' }).click();
    await page.waitForURL(`${p.url}/o/${org}/settings/merge-rules`);
    await page.getByRole('heading', { name: 'Merge rules', level: 1 }).waitFor();
    // An organization has no "inherit": none (the default) or rules.
    expect(await page.getByRole('radio', { name: "Use the organization's rules" }).count()).toBe(0);
    expect(await page.getByRole('radio', { name: /^No rule/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'These rules must all be met:' }).check();
    await page.getByRole('checkbox', { name: 'At least one approving review' }).check();
    await page.getByRole('button', { name: 'Save merge rules' }).click();
    await page.getByText('Merge rules saved.').waitFor();
    expect((await p.get(acme.token, `/orgs/${org}`)).body.mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_at_least_one_approved_review' }],
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Merge rules', level: 1 }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'At least one approving review' }).isChecked()).toBe(true);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-org-merge-rules.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-org-merge-rules-375.png'), fullPage: true });
    await page.close();
  });

  it("lists the space's history: its merged change requests and what each changed", { timeout: 90_000 }, async () => {
    const org = acme.organization.id;
    const space = (await v1('POST', `/orgs/${org}/spaces`, { title: 'Handbook' })).id as string;
    // The organization's rules (set by the test above) ask for a review: this space merges without one.
    await v1('PATCH', `/spaces/${space}`, { mergeRules: { type: 'none' } });
    await merged(space, 'First pages <script>', [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: 'Ask.' } },
    ]);
    const welcome = (await v1('GET', `/spaces/${space}/content/path/welcome`)).id;
    await merged(space, 'Warmer welcome', [
      { operation: 'update_page', page: welcome, document: { markdown: 'Hello, writers.' } },
    ]);
    const { page } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org}/s/${space}/~/settings`);
    await page.getByRole('link', { name: 'History of the space' }).click();
    await page.waitForURL(`${p.url}/o/${org}/s/${space}/~/history`);
    await page.getByRole('heading', { name: 'History of Handbook', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Merged change requests' });
    await list.getByRole('listitem').nth(1).waitFor();
    // Newest first; the subjects are text, not HTML.
    const summaries = await list.locator('summary strong').allTextContents();
    expect(summaries).toEqual(['Warmer welcome', 'First pages <script>']);
    await list.getByText('First pages <script>').click();
    const changes = page.getByRole('list', { name: 'What First pages <script> changed' });
    await changes.getByText('Page added: Welcome').waitFor();
    expect((await changes.getByRole('listitem').allTextContents()).sort()).toEqual([
      'Page added: FAQ',
      'Page added: Welcome',
    ]);
    await list.getByText('Warmer welcome').click();
    await page.getByRole('list', { name: 'What Warmer welcome changed' }).getByText('Page edited: Welcome').waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-space-history.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'quire-app-space-history-375.png'), fullPage: true });
    await page.close();
  });

  it("sets a collection's access", { timeout: 90_000 }, async () => {
    const org = acme.organization.id;
    const collection = (await v1('POST', `/orgs/${org}/collections`, { title: 'Guides' })).id as string;
    await v1('PUT', `/orgs/${org}/teams`, { title: 'Editors <b>' });
    const { page } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org}/c/${collection}/~/settings`);
    await page.getByRole('heading', { name: 'Settings of Guides', level: 1 }).waitFor();
    await page.getByLabel('Everyone in the organization').selectOption('read');
    await page.getByText('Default access saved.').waitFor();
    expect((await v1('GET', `/collections/${collection}`)).defaultLevel).toBe('read');
    await page.getByLabel('Give access to', { exact: true }).selectOption({ label: 'Editors <b>' });
    await page.getByLabel('Role', { exact: true }).selectOption('edit');
    await page.getByRole('button', { name: 'Give access' }).click();
    const teamRole = page.getByLabel('Role of team Editors <b> on this collection');
    await teamRole.waitFor();
    expect(await teamRole.inputValue()).toBe('edit');
    await teamRole.selectOption('review');
    await expect
      .poll(async () => (await v1('GET', `/collections/${collection}/permissions/teams`)).items)
      .toMatchObject([{ permission: 'review', team: { title: 'Editors <b>' } }]);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-collection-settings.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'quire-app-collection-settings-375.png'), fullPage: true });
    await page.close();
  });
});
