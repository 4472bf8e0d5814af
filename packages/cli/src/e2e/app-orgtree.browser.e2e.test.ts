import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axe, dragRowOver, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// The organization's space and collection tree (app/src/screens/Organization.tsx): pointer drag and drop as in the
// page tree (tree/drag.ts), moves through moveSpace / moveCollection; a deleted collection restored from the Trash.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, sessions } = useMailedInstance();

describe.skipIf(!hasChromium)('the organization tree in Chromium', () => {
  const browser = useChromium();
  const org = () => acme.organization.id;
  const api = () => p.client(acme.token);

  /** The tree as the API has it: in each parent its collections, then its spaces (as the screen shows them). */
  const treeOf = async () => {
    const collections = (await api().orgs.listCollectionsInOrganizationById(org(), { limit: 100 })).data.items;
    const spaces = (await api().orgs.listSpacesInOrganizationById(org(), { limit: 100 })).data.items;
    const draw = (parent: string | undefined): string[] => [
      ...collections
        .filter((c) => c.parent === parent)
        .map((c) => {
          const sub = draw(c.id);
          return sub.length ? `${c.title} [${sub.join(', ')}]` : c.title;
        }),
      ...spaces.filter((s) => s.parent === parent).map((s) => s.title),
    ];
    return draw(undefined);
  };
  /** The tree on a page, drawn the same way. */
  const shownOn = (page: import('playwright-core').Page) => () =>
    page.locator('.content-tree').evaluate((ul) => {
      const draw = (list: Element): string[] =>
        Array.from(list.children).map((li) => {
          const title = li.querySelector(':scope > .row a')?.textContent ?? '';
          const sub = li.querySelector(':scope > ul');
          return sub?.children.length ? `${title} [${draw(sub).join(', ')}]` : title;
        });
      return draw(ul);
    });

  it('moves spaces and collections by dragging rows (mouse, finger), refuses a loop, restores a collection', {
    timeout: 120_000,
  }, async () => {
    for (const title of ['Alpha', 'Beta']) await api().orgs.createCollection(org(), { title });
    for (const title of ['One', 'Two', 'Three']) await api().orgs.createSpace(org(), { title });
    const { page, violations } = await sessions.open(browser, 'ann@acme.io');
    const shown = shownOn(page);
    const expectTree = async (tree: string[]) => {
      await expect.poll(treeOf).toEqual(tree);
      await expect.poll(shown).toEqual(tree);
    };
    await page.goto(`${p.url}/o/${org()}`);
    await page.getByRole('link', { name: 'Three', exact: true }).waitFor();
    await expectTree(['Alpha', 'Beta', 'One', 'Two', 'Three']);
    const row = (name: string) =>
      page.locator('.content-tree .row', { has: page.getByRole('link', { name, exact: true }) });
    const live = page.locator('.content-tree ~ p[aria-live="polite"]');
    /** Presses on a row, moves to `y` (a share of the target row's height) and shows what a drop would do. */
    const dragOver = (from: string, to: string, y: number) => dragRowOver(page, row(from), row(to), y);

    // A space's upper half puts the dragged space before it (a line shows where, and it is said).
    await dragOver('Three', 'One', 0.2);
    await expect.poll(() => row('One').getAttribute('data-drop')).toBe('before');
    expect(await row('Three').getAttribute('data-dragging')).toBe('');
    await expect.poll(() => live.textContent()).toBe('Put Three before One');
    await page.mouse.up();
    await expectTree(['Alpha', 'Beta', 'Three', 'One', 'Two']);
    expect(await live.textContent()).toBe('Moved Three before One');

    // A collection's middle nests the space or the collection in it.
    await dragOver('One', 'Alpha', 0.5);
    await expect.poll(() => row('Alpha').getAttribute('data-drop')).toBe('inside');
    await expect.poll(() => live.textContent()).toBe('Nest One under Alpha');
    await page.screenshot({ path: join(SHOTS, 'quire-app-orgtree-drag.png') });
    await page.mouse.up();
    await expectTree(['Alpha [One]', 'Beta', 'Three', 'Two']);
    await dragOver('Beta', 'Alpha', 0.5);
    await page.mouse.up();
    await expectTree(['Alpha [Beta, One]', 'Three', 'Two']);

    // A collection cannot go into its own collections: the row says no, nothing moves. Escape cancels a drag.
    await dragOver('Alpha', 'Beta', 0.5);
    await expect.poll(() => row('Beta').getAttribute('data-drop')).toBe('refused');
    expect(await live.textContent()).toBe('Alpha cannot go into itself or its own collections');
    await page.mouse.up();
    expect(await live.textContent()).toBe('Alpha cannot go into itself or its own collections: not moved');
    await dragOver('Two', 'Alpha', 0.5);
    await page.keyboard.press('Escape');
    expect(await row('Alpha').getAttribute('data-drop')).toBeNull();
    await page.mouse.up();
    expect(await live.textContent()).toBe('Move cancelled');
    // The lower half of a space puts it after; a space dropped among collections goes first among the spaces.
    await dragOver('Three', 'Two', 0.8);
    await expect.poll(() => row('Two').getAttribute('data-drop')).toBe('after');
    await page.mouse.up();
    await expectTree(['Alpha [Beta, One]', 'Two', 'Three']);
    await dragOver('Three', 'Alpha', 0.1);
    await page.mouse.up();
    await expectTree(['Alpha [Beta, One]', 'Three', 'Two']);
    // No drag followed the link it was let go over; the keyboard's "Move to" lists still move.
    expect(new URL(page.url()).pathname).toBe(`/o/${org()}`);
    await page.getByLabel('Move Beta to').selectOption({ label: 'Top level' });
    await expectTree(['Alpha [One]', 'Beta', 'Three', 'Two']);
    await page.getByLabel('Move Beta to').selectOption({ label: 'Alpha' });
    await expectTree(['Alpha [Beta, One]', 'Three', 'Two']);
    expect(await page.getByLabel('Move Alpha to').locator('option').allTextContents()).toEqual(['Top level']);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-orgtree.png') });

    // Delete Alpha: what it held moves up; the Trash lists it and restores it with them.
    await page.getByRole('button', { name: 'Delete Alpha' }).click();
    await page.getByRole('button', { name: 'Confirm delete Alpha' }).click();
    await page.getByRole('status').getByText('Alpha is in the trash').waitFor();
    await expectTree(['Beta', 'Three', 'Two', 'One']);
    await page.getByRole('link', { name: 'Trash', exact: true }).click();
    await page.getByRole('heading', { name: 'Collections', level: 2 }).waitFor();
    const trashed = page.getByRole('list', { name: 'Collections' }).getByRole('listitem').filter({ hasText: 'Alpha' });
    await trashed.getByText(/Deleted .+ by Ann · 7 days left/).waitFor();
    await trashed.getByText('Held 1 space and 1 collection · goes back to the top level').waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-trash-collection.png') });
    await page.getByRole('button', { name: 'Restore Alpha' }).click();
    await page.getByRole('status').getByText('Restored Alpha').waitFor();
    await page.getByText('The trash is empty').waitFor();
    await page.getByRole('link', { name: 'Acme', exact: true }).click();
    await page.getByRole('link', { name: 'Alpha', exact: true }).waitFor();
    await expectTree(['Alpha [Beta, One]', 'Three', 'Two']);

    // A space made elsewhere (another member, a script) shows when the window gets the focus back, with no reload.
    const elsewhere = (await api().orgs.createSpace(org(), { title: 'Made elsewhere' })).data;
    const made = page.getByRole('link', { name: 'Made elsewhere', exact: true });
    expect(await made.count()).toBe(0);
    // (A focus within 2 s of the last load does not load again: polled until one counts.)
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.dispatchEvent(new Event('focus')));
          return made.count();
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe(1);
    await api().spaces.deleteSpaceById(elsewhere.id);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('lets a finger drag a row by its grip at 375 px; the Trash of collections in light and dark', {
    timeout: 60_000,
  }, async () => {
    const phone = await sessions.open(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    const page = phone.page;
    await page.goto(`${p.url}/o/${org()}`);
    await page.getByRole('link', { name: 'Two', exact: true }).waitFor();
    const before = await treeOf();
    expect(before).toEqual(['Alpha [Beta, One]', 'Three', 'Two']);
    const row = (name: string) =>
      page.locator('.content-tree .row', { has: page.getByRole('link', { name, exact: true }) });
    // both rows in sight (the screen is short): a touch lands where the rows are drawn
    await page.evaluate(() => document.querySelector('.content-tree')?.scrollIntoView({ block: 'end' }));
    const grip = (await row('Two').locator('.grip').boundingBox())!;
    const target = (await row('Three').boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const [x0, y0] = [grip.x + grip.width / 2, grip.y + grip.height / 2];
    const [x1, y1] = [target.x + 60, target.y + target.height * 0.15];
    await touch('touchStart', x0, y0);
    for (let i = 1; i <= 5; i++) await touch('touchMove', x0 + ((x1 - x0) * i) / 5, y0 + ((y1 - y0) * i) / 5);
    await expect.poll(() => row('Three').getAttribute('data-drop')).toBe('before');
    await touch('touchEnd', x1, y1);
    await expect.poll(treeOf).toEqual(['Alpha [Beta, One]', 'Two', 'Three']);
    await expect.poll(shownOn(page)).toEqual(['Alpha [Beta, One]', 'Two', 'Three']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-orgtree-375.png'), fullPage: true });

    // A deleted collection in the Trash at 375 px, light and dark.
    const gone = (await api().orgs.createCollection(org(), { title: 'Gone for now' })).data;
    await api().collections.deleteCollectionById(gone.id);
    await page.goto(`${p.url}/o/${org()}/trash`);
    await page.getByRole('button', { name: 'Restore Gone for now' }).waitFor();
    await page.getByText('Held nothing · goes back to the top level').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-trash-375-dark.png'), fullPage: true });
    expect(phone.violations).toEqual([]);
    await page.close();
  });
});
