import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { bootstrap } from './harness.ts';
import { useMailedInstance } from './mailbox.ts';

// The app's settings screens (app/src/screens/settings/, docs/app.md): what a lead sets, through /v1 only.
/** Where the screenshots go: QUIRE_SCREENSHOTS, else the system's temporary directory. */
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

/** Ann's instance and her signed-in pages (Ann: the organization's admin), watched for CSP violations and origins. */
const { p, acme, signedIn } = useMailedInstance();
// Cy has an account (in another organization): an invitation waits for Cy to accept it.
beforeAll(() => bootstrap(p, 'Other', 'cy@other.io', 'Cy'));

describe.skipIf(!hasChromium)('a lead in the app settings, in Chromium', () => {
  const browser = useChromium();

  it('invites, changes a role, makes a team, gives it a space and reads the audit log', {
    timeout: 120_000,
  }, async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const space = (await api.orgs.createSpace(org, { title: 'Runbook' })).data;
    const { page, ...seen } = await signedIn(browser, 'ann@acme.io');

    // From the organization to its members.
    await page.goto(`${p.url}/o/${org}`);
    await page.getByRole('link', { name: 'Settings: members, teams, audit log' }).click();
    await page.waitForURL(`${p.url}/o/${org}/settings/members`);
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.locator('.settings-list li', { hasText: 'ann@acme.io' }).waitFor();
    expect(await axe(page)).toEqual([]);

    // Invite a new person as an editor: a member at once.
    await page.getByLabel('E-mail').fill('bea@acme.io');
    await page.getByLabel('Role', { exact: true }).selectOption('edit');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('Invitation sent to bea@acme.io.').waitFor();
    const memberList = page.getByRole('list', { name: /^Members/ });
    const bea = memberList.getByRole('listitem').filter({ hasText: 'bea@acme.io' });
    await bea.waitFor();
    expect(await bea.getByRole('combobox').inputValue()).toBe('edit');
    // Someone with an account elsewhere: pending until they accept.
    await page.getByLabel('E-mail').fill('cy@other.io');
    await page.getByRole('button', { name: 'Invite' }).click();
    const pending = page.getByRole('list', { name: /^Pending invitations/ });
    await pending.getByText('cy@other.io').waitFor();
    expect(await pending.getByRole('listitem').filter({ hasText: 'cy@other.io' }).textContent()).toContain(
      'waiting for acceptance',
    );
    expect(await memberList.getByRole('listitem').filter({ hasText: 'cy@other.io' }).count()).toBe(0);
    // Bea, a new address, is a member at once; her invitation stays listed until she uses its link.
    expect(await pending.getByRole('listitem').filter({ hasText: 'bea@acme.io' }).textContent()).toContain(
      'a member; link not used yet',
    );
    // Withdrawing Cy's invitation: gone from the list (and from the API's).
    await page.getByRole('button', { name: 'Withdraw the invitation of cy@other.io' }).click();
    await page.getByRole('button', { name: 'Confirm withdraw the invitation of cy@other.io' }).click();
    await pending.getByText('cy@other.io').waitFor({ state: 'detached' });
    const open = (await p.get(acme.token, `/orgs/${org}/invites`)).body.items as { user: { email: string } }[];
    expect(open.map((i) => i.user.email)).toEqual(['bea@acme.io']);

    // Change Bea's role.
    await bea.getByRole('combobox', { name: /^Role of / }).selectOption('review');
    const members = async () => (await p.get(acme.token, `/orgs/${org}/members?limit=100`)).body.items;
    await expect
      .poll(async () => (await members()).find((m: { user: { email: string } }) => m.user.email === 'bea@acme.io').role)
      .toBe('review');
    const beaId = (await members()).find((m: { user: { email: string } }) => m.user.email === 'bea@acme.io').id;
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-members.png'), fullPage: true });

    // A team with Bea in it.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Teams' }).click();
    await page.getByRole('heading', { name: 'Teams', level: 1 }).waitFor();
    await page.getByLabel('Team name').fill('Writers <b>');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('button', { name: /^Writers <b> \(0 members\)/ }).click();
    await page.getByLabel('Add to Writers <b>').selectOption({ label: 'bea (bea@acme.io)' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Remove bea from Writers <b>' }).waitFor();
    await page.getByRole('button', { name: /^Writers <b> \(1 member\)/ }).waitFor();
    await page.getByRole('button', { name: 'Rename Writers <b>' }).click();
    await page.getByLabel('New name of Writers <b>').fill('Writers');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: /^Writers \(1 member\)/ }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-teams.png'), fullPage: true });
    const team = (await p.get(acme.token, `/orgs/${org}/teams`)).body.items[0];
    expect(team).toMatchObject({ title: 'Writers', members: 1 });

    // The space: default access, the team's role, merge rules; no Git sync yet.
    await page.goto(`${p.url}${new URL(space.urls.app).pathname}`);
    await page.getByRole('link', { name: 'Space settings' }).click();
    await page.waitForURL(/\/~\/settings$/);
    await page.getByRole('heading', { name: 'Settings of Runbook' }).waitFor();
    await page.getByLabel('Everyone in the organization').selectOption('comment');
    await page.getByText('Default access saved.').waitFor();
    await page.getByLabel('Give access to', { exact: true }).selectOption({ label: 'Writers' });
    await page.getByLabel('Role', { exact: true }).selectOption('edit');
    await page.getByRole('button', { name: 'Give access' }).click();
    const teamRole = page.getByLabel('Role of team Writers on this space');
    await teamRole.waitFor();
    expect(await teamRole.inputValue()).toBe('edit');
    await page.getByLabel('Give access to', { exact: true }).selectOption({ label: 'bea (bea@acme.io)' });
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Give access' }).click();
    await page.getByLabel('Role of bea on this space').selectOption('review');
    await expect
      .poll(async () => (await p.get(acme.token, `/spaces/${space.id}/permissions/users`)).body.items)
      .toMatchObject([{ permission: 'review', user: { id: beaId } }]);
    await page.getByLabel('These rules must all be met:').check();
    await page.getByLabel('At least one approving review').check();
    // A rule naming a member: Bea, found by name.
    const oneOf = 'At least one of these members approves';
    await page.getByLabel(oneOf, { exact: true }).check();
    await page.getByLabel(`Search members for "${oneOf}"`).fill('bea');
    await page.getByLabel(`Search members for "${oneOf}"`).press('Enter');
    await page
      .getByRole('list', { name: `Members: ${oneOf}` })
      .getByText('bea', { exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Save merge rules' }).click();
    await page.getByText('Merge rules saved.').waitFor();
    await page.getByText('This space is not synced with a Git repository.').waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-space.png'), fullPage: true });
    const saved = (await p.get(acme.token, `/spaces/${space.id}`)).body;
    expect(saved.defaultLevel).toBe('comment');
    expect(saved.mergeRules).toEqual({
      type: 'rules',
      rules: [
        { rule: 'require_at_least_one_approved_review' },
        { rule: 'require_one_of_specific_reviewers', users: [beaId] },
      ],
    });
    const teams = (await p.get(acme.token, `/spaces/${space.id}/permissions/teams`)).body.items;
    expect(teams).toMatchObject([{ permission: 'edit', team: { id: team.id } }]);

    // The audit log, filtered by an action.
    // The team's creation, as the API's log has it (recorded after the call): its action, then the screen.
    type Event = { action: string; target: { id: string } };
    let created: Event | undefined;
    await expect
      .poll(async () => {
        const events: Event[] = (await p.get(acme.token, `/orgs/${org}/audit-events?limit=100`)).body.items;
        created = events.find((e) => e.target.id === team.id && /creat/i.test(e.action));
        return created !== undefined;
      })
      .toBe(true);
    await page.goto(`${p.url}/o/${org}/settings/audit`);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    await page.getByLabel('Action', { exact: true }).selectOption(created!.action);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('1 event shown').waitFor();
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('team: Writers')]);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-audit.png'), fullPage: true });

    // A site: its urls.app, publish, a share link, unpublish.
    const site = (await api.orgs.createSite(org, { title: 'Portal' })).data;
    await api.orgs.addSpaceToSite(org, site.id, { spaceId: space.id });
    await page.goto(`${p.url}/o/${org}/sites`);
    await page.getByRole('link', { name: 'Portal' }).click();
    await page.waitForURL(`${p.url}${new URL(site.urls.app).pathname}`);
    await page.getByRole('heading', { name: 'Portal', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Publish Portal', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish Portal' }).waitFor();
    await page.getByLabel('Name of the link').fill('For the auditors');
    await page.getByRole('button', { name: 'Create share link' }).click();
    const address = page.getByLabel('Address of For the auditors');
    await address.waitFor();
    expect(await address.inputValue()).toMatch(/[?&]share=/);
    const active = page.getByRole('checkbox', { name: 'Active (For the auditors)' });
    await active.click();
    await expect.poll(() => active.isChecked()).toBe(false);
    await expect
      .poll(async () => (await p.get(acme.token, `/orgs/${org}/sites/${site.id}/share-links`)).body.items[0].active)
      .toBe(false);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-site.png'), fullPage: true });
    await page.getByRole('button', { name: 'Unpublish Portal' }).click();
    await page.getByRole('button', { name: 'Publish Portal', exact: true }).waitFor();
    expect((await p.get(acme.token, `/orgs/${org}/sites/${site.id}`)).body.published).toBe(false);

    // Remove Bea from the organization (with the confirmation step).
    await page.goto(`${p.url}/o/${org}/settings/members`);
    await page.getByRole('button', { name: 'Remove bea' }).click();
    await page.getByRole('button', { name: 'Confirm remove bea' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: /^Members/ })
          .getByRole('listitem')
          .filter({ hasText: 'bea@acme.io' })
          .count(),
      )
      .toBe(0);

    expect(seen.violations).toEqual([]);
    expect([...seen.origins]).toEqual([p.url]);
    await page.close();
  });

  it('is usable at 375 px, light and dark', { timeout: 60_000 }, async () => {
    const { page } = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 740 },
      colorScheme: 'dark',
    });
    const spaces = (await p.client(acme.token).orgs.listSpacesInOrganizationById(acme.organization.id)).data.items;
    for (const path of [
      `/o/${acme.organization.id}/settings/members`,
      `/o/${acme.organization.id}/settings/audit`,
      `${new URL(spaces[0]!.urls.app).pathname}/~/settings`,
    ]) {
      await page.goto(`${p.url}${path}`);
      await page.locator('h1').waitFor();
      await page.locator('.settings-list li, tbody tr').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await axe(page), path).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
      expect(await axe(page), path).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${p.url}/o/${acme.organization.id}/settings/members`);
    await page.locator('.settings-list li').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'quire-app-settings-375-dark.png'), fullPage: true });
    await page.close();
  });
});
