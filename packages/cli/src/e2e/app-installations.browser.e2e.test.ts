import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// An integration's configuration on each space and site it is installed on (screens/integrations/
// TargetConfiguration.tsx, ConfigurationFields.tsx): the integration's `space` and `site` forms and external IDs.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, sessions, v1 } = useMailedInstance();
const api = (method: string, path: string, body?: unknown) => v1(acme.token, method, path, body);

/** The page at 375 px and 1280 px, light and dark: no horizontal scrolling, axe-core clean, screenshots. */
async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!hasChromium)("an admin configures an integration on each space and site it's installed on", () => {
  const browser = useChromium();
  const org = () => acme.organization.id;

  it('fills the space form and the site form, saves, reloads, and the API has them', { timeout: 180_000 }, async () => {
    await api('POST', '/integrations/tickets', {
      title: 'Tickets',
      description: 'Issues beside the docs',
      script: 'export default createIntegration({})',
      scopes: ['space:content:read'],
      organization: org(),
      configurations: {
        space: {
          properties: {
            project: { type: 'string', title: 'Project key', description: 'Where the tickets of this space go' },
            priority: { type: 'string', title: 'Priority', enum: ['low', 'high'] },
            limit: { type: 'number', title: 'Most tickets shown' },
            closed: { type: 'boolean', title: 'Show closed tickets' },
          },
          required: ['project'],
        },
        site: { properties: { board: { type: 'string', title: 'Board' } } },
      },
    });
    const space = (await api('POST', `/orgs/${org()}/spaces`, { title: 'Ticket docs' })).id;
    const site = (await api('POST', `/orgs/${org()}/sites`, { title: 'Ticket site' })).id;
    const installation = await api('POST', '/integrations/tickets/installations', { organization: org() });
    await api('POST', `/integrations/tickets/installations/${installation.id}/spaces`, { space });
    await api('POST', `/integrations/tickets/installations/${installation.id}/sites`, { siteId: site });

    const { page, violations } = await sessions.open(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${org()}/integrations/tickets`);
    const spaces = page.getByRole('region', { name: 'Spaces', exact: true });
    await spaces.getByText('Configure on Ticket docs').click();
    const form = page.getByRole('form', { name: 'Configuration on Ticket docs' });
    await form.getByLabel('Project key (required)').fill('DOC <1>');
    await form.getByLabel('Priority').selectOption('high');
    await form.getByLabel('Most tickets shown').fill('12');
    await form.getByLabel('Show closed tickets').check();
    await form.getByLabel('External IDs (one a line, at most 5)').fill('proj-1\n\n  repo-2  ');
    await form.getByRole('button', { name: 'Save the configuration on Ticket docs' }).click();
    await form.getByText('Configuration on Ticket docs saved.').waitFor();
    const onSpace = await api('GET', `/integrations/tickets/installations/${installation.id}/spaces/${space}`);
    expect([onSpace.configuration, onSpace.externalIds]).toEqual([
      { project: 'DOC <1>', priority: 'high', limit: 12, closed: true },
      ['proj-1', 'repo-2'],
    ]);
    // Six external IDs are refused before they are sent.
    await form.getByLabel('External IDs (one a line, at most 5)').fill('a\nb\nc\nd\ne\nf');
    await form.getByText('Too many: 6 IDs, at most 5.').waitFor();
    expect(await form.getByRole('button', { name: 'Save the configuration on Ticket docs' }).isDisabled()).toBe(true);

    // The site's own form.
    const sites = page.getByRole('region', { name: 'Sites', exact: true });
    await sites.getByText('Configure on Ticket site').click();
    const siteForm = page.getByRole('form', { name: 'Configuration on Ticket site' });
    await siteForm.getByLabel('Board').fill('Public board');
    await siteForm.getByRole('button', { name: 'Save the configuration on Ticket site' }).click();
    await siteForm.getByText('Configuration on Ticket site saved.').waitFor();
    const onSite = await api('GET', `/integrations/tickets/installations/${installation.id}/sites/${site}`);
    expect([onSite.configuration, onSite.externalIds]).toEqual([{ board: 'Public board' }, []]);

    // Read again after a reload: the values are the installation's.
    await page.reload();
    await spaces.getByText('Configure on Ticket docs').click();
    await sites.getByText('Configure on Ticket site').click();
    expect(await form.getByLabel('Project key (required)').inputValue()).toBe('DOC <1>');
    expect(await form.getByLabel('Priority').inputValue()).toBe('high');
    expect(await form.getByLabel('Most tickets shown').inputValue()).toBe('12');
    expect(await form.getByLabel('Show closed tickets').isChecked()).toBe(true);
    expect(await form.getByLabel('External IDs (one a line, at most 5)').inputValue()).toBe('proj-1\nrepo-2');
    expect(await siteForm.getByLabel('Board').inputValue()).toBe('Public board');
    await shots(page, 'B-installation');
    expect(violations).toEqual([]);
    await page.close();
  });
});
