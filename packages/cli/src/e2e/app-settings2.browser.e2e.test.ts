import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { addUser } from './harness.ts';
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
    // A header menu set through the API: the form lists it and keeps it.
    const menu = {
      title: 'Docs',
      to: null,
      links: [{ title: 'Guide', to: { kind: 'url', url: 'https://acme.io/g' } }],
    };
    await v1('PUT', `/orgs/${org}/sites/${site.id}/customization`, { header: { links: [menu] } });
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

    // The announcement, a header link and the footer (a copyright line, a group of links), seen in the preview.
    await page.getByLabel('Show the announcement above every page').check();
    await page.getByLabel('Message', { exact: true }).fill('Version 2 is out <b>');
    await page.getByLabel('Style of the announcement').selectOption('success');
    await page.getByRole('button', { name: 'Add a header link' }).click();
    await page.getByText('Docs (a menu, set through the API)').waitFor();
    await page.getByLabel('Title of header link 2').fill('Status <i>');
    await page.getByLabel('URL of header link 2').fill('https://status.acme.io/');
    await page.getByLabel('Style of header link 2').selectOption('button-primary');
    await page.getByLabel('Copyright line').fill('© Acme <s>');
    await page.getByRole('button', { name: 'Add a footer group' }).click();
    await page.getByLabel('Title of footer group 1').fill('Company');
    await page.getByRole('button', { name: 'Add a link to footer group 1' }).click();
    await page.getByLabel('Title of link 1 of footer group 1').fill('Blog');
    await page.getByLabel('URL of link 1 of footer group 1').fill('https://blog.acme.io/');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByText('Customization saved.').waitFor();
    const links = (await p.get(acme.token, `/orgs/${org}/sites/${site.id}/customization`)).body;
    expect([links.announcement, links.header.links, links.footer]).toEqual([
      { enabled: true, message: 'Version 2 is out <b>', style: 'success' },
      [
        menu,
        {
          title: 'Status <i>',
          style: 'button-primary',
          to: { kind: 'url', url: 'https://status.acme.io/' },
          links: [],
        },
      ],
      {
        copyright: '© Acme <s>',
        groups: [{ title: 'Company', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://blog.acme.io/' } }] }],
      },
    ]);
    await frame.getByRole('link', { name: 'Status <i>' }).waitFor();
    await frame.getByText('© Acme <s>').waitFor();
    await frame.getByRole('link', { name: 'Blog' }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-links.png'), fullPage: true });
    // The announcement on the published page itself: on top, as text, axe-clean light and dark at 375 px, and
    // dismissed for good by its button (the site's script file: no inline script under the pages' CSP).
    await frame.getByRole('region', { name: 'Announcement' }).getByText('Version 2 is out <b>').waitFor();
    const { page: published, violations } = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 800 },
    });
    await published.goto(new URL((await page.locator('iframe').getAttribute('src'))!, page.url()).href);
    const banner = published.getByRole('region', { name: 'Announcement' });
    await banner.getByText('Success:').waitFor();
    expect(await published.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(published)).toEqual([]);
    // Dark: the whole page, the site's primary colour (#aa3300 in light) kept readable on the dark background.
    await published.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(published)).toEqual([]);
    await published.screenshot({ path: join(SHOTS, 'quire-site-announcement-375-dark.png') });
    await banner.getByRole('button', { name: 'Dismiss the announcement' }).click();
    await banner.waitFor({ state: 'hidden' });
    await published.reload();
    await published.getByRole('link', { name: 'Status <i>' }).waitFor();
    expect(await banner.isVisible()).toBe(false);
    expect(violations).toEqual([]);
    await published.close();
    // Removing the header link and emptying the message removes them.
    await page.getByRole('button', { name: 'Remove header link 2' }).click();
    await page.getByLabel('Show the announcement above every page').uncheck();
    await page.getByLabel('Message', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await expect
      .poll(async () => {
        const c = (await p.get(acme.token, `/orgs/${org}/sites/${site.id}/customization`)).body;
        return [c.announcement, c.header.links];
      })
      .toEqual([undefined, [menu]]);

    // A space's own look: its title and theme over the site's, then back to the site's.
    const apiRef = (await p.get(acme.token, `/orgs/${org}/sites/${site.id}/site-spaces`)).body.items.find(
      (x: { title: string }) => x.title === 'API <i>ref</i>',
    );
    const own = async () =>
      (await p.get(acme.token, `/orgs/${org}/sites/${site.id}/site-spaces/${apiRef.id}/customization`)).body;
    await page.getByLabel('Space of the site').selectOption({ label: 'API <i>ref</i>' });
    await page.getByLabel('Own title').check();
    await page.getByLabel('Title on the pages of API <i>ref</i>').fill('API handbook');
    await page.getByLabel('Own theme').check();
    await page.getByLabel('Theme of API <i>ref</i>').selectOption('muted');
    await page.getByRole('button', { name: 'Save the look of API <i>ref</i>' }).click();
    await page.getByText('The look of API <i>ref</i> saved.').waitFor();
    expect(await own()).toMatchObject({
      title: 'API handbook',
      styling: { theme: 'muted', primaryColor: { light: '#aa3300' } },
    });
    // Read again, the overrides show as such; the site's title stays.
    await page.reload();
    await page.getByLabel('Space of the site').selectOption({ label: 'API <i>ref</i>' });
    expect(await page.getByLabel('Title on the pages of API <i>ref</i>').inputValue()).toBe('API handbook');
    expect(await page.getByLabel('Own icon').isChecked()).toBe(false);
    expect((await p.get(acme.token, `/orgs/${org}/sites/${site.id}/customization`)).body.title).toBe('Acme Handbook');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-space-look.png'), fullPage: true });
    await page.getByRole('button', { name: "Reset API <i>ref</i> to the site's look" }).click();
    await page.getByRole('button', { name: "Confirm reset API <i>ref</i> to the site's look" }).click();
    await page.getByText('API <i>ref</i> follows the site.').waitFor();
    expect(await own()).toMatchObject({ title: 'Acme Handbook', styling: { theme: 'bold' } });
    // The form reads the space's look again: nothing of its own.
    await expect.poll(() => page.getByLabel('Own title').isChecked()).toBe(false);

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

  it('orders the sections of a site and groups them', { timeout: 120_000 }, async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const one = (await api.orgs.createSpace(org, { title: 'One' })).data;
    const two = (await api.orgs.createSpace(org, { title: 'Two' })).data;
    const site = (await api.orgs.createSite(org, { title: 'Manual' })).data;
    await api.orgs.addSectionToSite(org, site.id, { spaceId: one.id, title: 'One' });
    await api.orgs.addSectionToSite(org, site.id, { spaceId: two.id, title: 'Two' });
    type Node = { object: string; title: string; children?: Node[] };
    const titles = (items: Node[]): unknown[] =>
      items.map((i) => (i.children ? { [i.title]: titles(i.children) } : i.title));
    const structure = async () =>
      titles((await p.get(acme.token, `/orgs/${org}/sites/${site.id}/structure`)).body.structure);
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Manual', level: 1 }).waitFor();
    const root = page.getByRole('list', { name: 'Sections', exact: true });
    await root.getByLabel('Title of section One').waitFor();
    // Reorder: the first cannot go up; One goes down, below Two.
    expect(await page.getByRole('button', { name: 'Move up section One' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Move down section One' }).click();
    await page.getByText('Moved section One down.').waitFor();
    await expect.poll(structure).toEqual(['Two', 'One']);
    // The focus stays on One's buttons (its "Move down" now disabled): the keyboard goes on from there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Move up section One');
    // A group (its title shown as text), One put in it, then the group moved first.
    await page.getByLabel('Title of the new group').fill('Guides <b>');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByText('Group Guides <b> added.').waitFor();
    await expect.poll(structure).toEqual(['Two', 'One', { 'Guides <b>': [] }]);
    await page.getByLabel('Group of section One').selectOption({ label: 'Guides <b>' });
    const inGroup = page.getByRole('list', { name: 'In group Guides <b>' });
    await inGroup.getByLabel('Title of section One').waitFor();
    await expect.poll(structure).toEqual(['Two', { 'Guides <b>': ['One'] }]);
    await page.getByRole('button', { name: 'Move up group Guides <b>' }).click();
    await expect.poll(structure).toEqual([{ 'Guides <b>': ['One'] }, 'Two']);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-groups.png'), fullPage: true });
    // The rest at 375 px, dark: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site-groups-375.png'), fullPage: true });
    // Rename the group; delete it: its section takes its place.
    await page.getByLabel('Title of the group Guides <b>').fill('Guides');
    await page.getByRole('button', { name: 'Save group Guides <b>' }).click();
    await expect.poll(structure).toEqual([{ Guides: ['One'] }, 'Two']);
    await page.getByRole('button', { name: 'Delete group Guides' }).click();
    await page.getByRole('button', { name: 'Confirm delete group Guides' }).click();
    await page.getByText('Group Guides deleted.').waitFor();
    await expect.poll(structure).toEqual(['One', 'Two']);
    await root.getByLabel('Title of section One').waitFor();
    expect(seen.violations).toEqual([]);
    await page.close();
  });

  it("sets the organization's merge rules, naming members", { timeout: 120_000 }, async () => {
    const org = acme.organization.id;
    const bea = await addUser(p, org, 'bea@acme.io', 'review', 'Bea <b>');
    const carl = await addUser(p, org, 'carl@acme.io', 'review', 'Carl');
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org}/settings/members`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Merge rules' }).click();
    await page.waitForURL(`${p.url}/o/${org}/settings/merge-rules`);
    await page.getByRole('heading', { name: 'Merge rules', level: 1 }).waitFor();
    // An organization has no "inherit": none (the default) or rules.
    expect(await page.getByRole('radio', { name: "Use the organization's rules" }).count()).toBe(0);
    expect(await page.getByRole('radio', { name: /^No rule/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'These rules must all be met:' }).check();
    await page.getByRole('checkbox', { name: 'At least one approving review' }).check();
    // Specific reviewers: a member found by name (searched, then chosen in the narrowed select), by keyboard.
    const every = 'Every one of these members approves';
    await page.getByRole('checkbox', { name: every }).check();
    // A rule naming nobody is not sent: the form says what is missing.
    await page.getByRole('button', { name: 'Save merge rules' }).click();
    await page.getByRole('alert').getByText(`Choose at least one member for "${every}".`).waitFor();
    const search = page.getByLabel(`Search members for "${every}"`);
    await search.fill('bea');
    expect(await page.getByLabel(`Member to add to "${every}"`).locator('option').allTextContents()).toEqual([
      'Bea <b> (bea@acme.io)',
    ]);
    await search.press('Enter');
    const everyList = page.getByRole('list', { name: `Members: ${every}` });
    await everyList.getByText('Bea <b>', { exact: true }).waitFor();
    await page.getByLabel(`Member to add to "${every}"`).selectOption({ label: 'Carl (carl@acme.io)' });
    await page.getByRole('button', { name: `Add to "${every}"` }).click();
    await everyList.getByText('Carl', { exact: true }).waitFor();
    // Bypass: Ann, then removed again and Carl chosen instead.
    const bypass = 'These members may merge even when the rules are not met';
    await page.getByRole('checkbox', { name: bypass }).check();
    await page.getByLabel(`Search members for "${bypass}"`).fill('ann');
    await page.getByRole('button', { name: `Add to "${bypass}"` }).click();
    await page.getByRole('button', { name: `Remove Ann from "${bypass}"` }).click();
    await page.getByLabel(`Search members for "${bypass}"`).fill('CARL@');
    await page.getByRole('button', { name: `Add to "${bypass}"` }).click();
    await page.getByRole('button', { name: 'Save merge rules' }).click();
    await page.getByText('Merge rules saved.').waitFor();
    expect((await p.get(acme.token, `/orgs/${org}`)).body.mergeRules).toEqual({
      type: 'rules',
      rules: [
        { rule: 'require_at_least_one_approved_review' },
        { rule: 'require_specific_reviewers', users: [bea.user.id, carl.user.id] },
        { rule: 'allow_bypass', users: [carl.user.id] },
      ],
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Merge rules', level: 1 }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'At least one approving review' }).isChecked()).toBe(true);
    await everyList.getByText('Bea <b>', { exact: true }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-org-merge-rules.png'), fullPage: true });
    // Remove Bea, then drop the bypass rule: the rules saved are the ones shown.
    await page.getByRole('button', { name: `Remove Bea <b> from "${every}"` }).click();
    await page.getByRole('checkbox', { name: bypass }).uncheck();
    await page.getByRole('button', { name: 'Save merge rules' }).click();
    await page.getByText('Merge rules saved.').waitFor();
    expect((await p.get(acme.token, `/orgs/${org}`)).body.mergeRules.rules).toEqual([
      { rule: 'require_at_least_one_approved_review' },
      { rule: 'require_specific_reviewers', users: [carl.user.id] },
    ]);
    expect(seen.violations).toEqual([]);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-org-merge-rules-375.png'), fullPage: true });
    // The next test merges in a space of its own: the organization's rules back to one approving review.
    await v1('PATCH', `/orgs/${org}`, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] },
    });
    await page.close();
  });

  it("lists the space's history: every revision, what made it, and what it changed", { timeout: 150_000 }, async () => {
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
    // 19 more merges: with the space's first revision, 22 revisions, two pages of the history (20 a page).
    for (let i = 1; i <= 19; i++)
      await merged(space, `Tweak ${i}`, [
        { operation: 'update_page', page: welcome, document: { markdown: `Hello, ${i}.` } },
      ]);
    const { page } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org}/s/${space}/~/settings`);
    await page.getByRole('link', { name: 'History of the space' }).click();
    await page.waitForURL(`${p.url}/o/${org}/s/${space}/~/history`);
    await page.getByRole('heading', { name: 'History of Handbook', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Revisions' });
    await page.getByText('20 of 22 revisions shown').waitFor();
    // Newest first, each with what made it and who; the subjects are text, not HTML.
    const summaries = () => list.locator('summary strong').allTextContents();
    expect((await summaries()).slice(0, 2)).toEqual([
      'Merged change request #21: Tweak 19',
      'Merged change request #20: Tweak 18',
    ]);
    expect(await list.locator('summary').first().textContent()).toContain(', by Ann');
    await page.getByRole('button', { name: 'Show older revisions' }).click();
    await page.getByText('22 of 22 revisions shown').waitFor();
    expect((await summaries()).slice(17)).toEqual([
      'Merged change request #4: Tweak 2',
      'Merged change request #3: Tweak 1',
      'Merged change request #2: Warmer welcome',
      'Merged change request #1: First pages <script>',
      'Space created',
    ]);
    expect(await page.getByRole('button', { name: 'Show older revisions' }).count()).toBe(0);
    await list.getByText('Merged change request #1: First pages <script>').click();
    const changes = page.getByRole('list', { name: 'What Merged change request #1: First pages <script> changed' });
    await changes.getByText('Page added: Welcome').waitFor();
    expect((await changes.getByRole('listitem').allTextContents()).sort()).toEqual([
      'Page added: FAQ',
      'Page added: Welcome',
    ]);
    // By keyboard: a revision's summary opens with Enter, with a link to its change request.
    await list.locator('summary').nth(19).focus();
    await page.keyboard.press('Enter');
    const warmer = page.getByRole('list', { name: 'What Merged change request #2: Warmer welcome changed' });
    await warmer.getByText('Page edited: Welcome').waitFor();
    await page.getByRole('link', { name: 'Open change request #2' }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-space-history.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
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
