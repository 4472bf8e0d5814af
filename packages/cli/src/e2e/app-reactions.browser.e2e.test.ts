import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { addUser, type Seat } from './harness.ts';
import { useMailedInstance } from './mailbox.ts';

// Reactions, contributors and a revision's pages in the app (docs/app.md, "Change requests" and "History"): two
// members react to a comment and a reply of a change request (toggles with counts, "Add reaction" menu, by mouse and
// keyboard), the change request's contributors listed once both edited it, and a page edited twice read as it was
// in its earlier revision. Everything through /v1.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();
let bob: Seat;
beforeAll(async () => {
  bob = await addUser(p, acme.organization.id, 'bob@acme.io', 'edit', 'Bob');
  await p.awaitMembers([bob.user.id]);
});

/** The screen at 375 px and in dark mode: axe-clean, and photographed (light, narrow, dark). */
async function looks(page: Page, name: string) {
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `quire-app-${name}.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: join(SHOTS, `quire-app-${name}-375.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `quire-app-${name}-dark.png`), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.skipIf(!hasChromium)('reactions, contributors and a revision’s pages in the app, in Chromium', () => {
  const browser = useChromium();

  it('lets two members react to a comment and a reply, and lists who edited the change request', {
    timeout: 180_000,
  }, async () => {
    const space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Guides' })).id;
    const cr = await changeRequest(space, 'Reactions', [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Start here.' } },
    ]);
    const crPath = `/spaces/${space}/change-requests/${cr.id}`;
    const comment = await v1(acme.token, 'POST', `${crPath}/comments`, { body: { markdown: 'Ready <b>now</b>?' } });
    const reply = await v1(bob.token, 'POST', `${crPath}/comments/${comment.id}/replies`, {
      body: { markdown: 'Almost.' },
    });
    const url = `${p.url}/o/${acme.organization.id}/s/${space}/~/changes/${cr.number}/~/review`;

    // Ann's review: she alone edited the change request so far.
    const ann = await signedIn(browser, 'ann@acme.io');
    await ann.page.goto(url);
    const annContributors = ann.page.getByRole('list', { name: `Contributors of #${cr.number}` });
    await annContributors.getByText('Ann', { exact: true }).waitFor();
    expect(await annContributors.getByRole('listitem').count()).toBe(1);
    expect(await annContributors.textContent()).toMatch(/^Ann 1 edit, last on /);

    // Bob's review: he reacts 👍 to Ann's comment with the mouse, through "Add reaction".
    const b = await signedIn(browser, 'bob@acme.io');
    await b.page.goto(url);
    const bobComment = b.page.getByRole('article', { name: 'Comment by Ann' });
    await bobComment.getByText('Ready <b>now</b>?').waitFor();
    const bobAdd = bobComment.getByRole('button', { name: 'Add reaction to the comment of Ann' });
    expect(await bobAdd.getAttribute('aria-expanded')).toBe('false');
    await bobAdd.click();
    expect(await bobAdd.getAttribute('aria-expanded')).toBe('true');
    const bobMenu = b.page.getByRole('menu', { name: 'Reactions to the comment of Ann' });
    expect(await bobMenu.getByRole('menuitemcheckbox').count()).toBe(8);
    await bobMenu.getByRole('menuitemcheckbox', { name: '👍 Thumbs up' }).click();
    const bobThumbs = bobComment.getByRole('button', { name: '👍 1, you reacted', exact: true });
    await bobThumbs.waitFor();
    expect(await bobThumbs.getAttribute('aria-pressed')).toBe('true');
    expect(await bobMenu.count()).toBe(0);

    // Ann, after a reload: Bob's 👍, not hers; she adds hers with the toggle, then 👀 with the keyboard.
    await ann.page.reload();
    const annComment = ann.page.getByRole('article', { name: 'Comment by Ann' });
    const annThumbs = annComment.getByRole('button', { name: /^👍 / });
    await expect.poll(() => annThumbs.getAttribute('aria-label')).toBe('👍 1');
    expect(await annThumbs.getAttribute('aria-pressed')).toBe('false');
    expect(await annThumbs.getAttribute('title')).toBe('Bob');
    await annThumbs.click();
    await expect.poll(() => annThumbs.getAttribute('aria-label')).toBe('👍 2, you reacted');
    expect(await annThumbs.getAttribute('aria-pressed')).toBe('true');
    expect(await annThumbs.getAttribute('title')).toBe('Bob and you');
    const annAdd = annComment.getByRole('button', { name: 'Add reaction to the comment of Ann' });
    await annAdd.focus();
    await ann.page.keyboard.press('Enter');
    const annMenu = ann.page.getByRole('menu', { name: 'Reactions to the comment of Ann' });
    // the menu has the focus on its first emoji, checked (hers); Escape closes it, back to the button
    await expect
      .poll(() => ann.page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('👍 Thumbs up');
    expect(await annMenu.getByRole('menuitemcheckbox', { name: '👍 Thumbs up' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await ann.page.keyboard.press('Escape');
    expect(await annMenu.count()).toBe(0);
    expect(await annAdd.evaluate((el) => el === document.activeElement)).toBe(true);
    await ann.page.keyboard.press('ArrowDown');
    await ann.page.keyboard.press('End');
    await expect
      .poll(() => ann.page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('👀 Eyes');
    await ann.page.keyboard.press('Enter');
    await annComment.getByRole('button', { name: '👀 1, you reacted', exact: true }).waitFor();
    // and 🎉 to Bob's reply
    const annReply = ann.page.getByRole('article', { name: 'Reply by Bob' });
    await annReply.getByRole('button', { name: 'Add reaction to the reply of Bob' }).click();
    await ann.page
      .getByRole('menu', { name: 'Reactions to the reply of Bob' })
      .getByRole('menuitemcheckbox', { name: '🎉 Hooray' })
      .click();
    await annReply.getByRole('button', { name: '🎉 1, you reacted', exact: true }).waitFor();

    // The API has both members' reactions, in order of first reaction.
    const reactions = async () =>
      (await v1(acme.token, 'GET', `${crPath}/comments/${comment.id}`)).reactions.map(
        (r: { emoji: string; count: number; users: { user: { id: string } }[] }) => [
          r.emoji,
          r.count,
          r.users.map((u) => u.user.id),
        ],
      );
    expect(await reactions()).toEqual([
      ['👍', 2, [bob.user.id, acme.user.id]],
      ['👀', 1, [acme.user.id]],
    ]);
    expect((await v1(bob.token, 'GET', `${crPath}/comments/${comment.id}/replies/${reply.id}`)).reactions).toEqual([
      expect.objectContaining({ emoji: '🎉', count: 1 }),
    ]);
    await annAdd.click();
    await looks(ann.page, 'reactions');
    await ann.page.keyboard.press('Escape');

    // Ann takes her 👍 away: 1 left, Bob's.
    await annThumbs.click();
    await expect.poll(() => annThumbs.getAttribute('aria-label')).toBe('👍 1');
    expect(await annThumbs.getAttribute('aria-pressed')).toBe('false');
    expect(await reactions()).toEqual([
      ['👍', 1, [bob.user.id]],
      ['👀', 1, [acme.user.id]],
    ]);

    // Bob edits the change request: both are contributors, Ann's open review shows it when she comes back to it.
    await v1(bob.token, 'POST', `${crPath}/content`, {
      changes: [{ operation: 'insert_page', title: 'Notes', document: { markdown: 'Bob was here.' } }],
    });
    await ann.page.waitForTimeout(2_100);
    await ann.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await annContributors.getByText('Bob', { exact: true }).waitFor();
    expect(await annContributors.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^Ann 1 edit, last on /),
      expect.stringMatching(/^Bob 1 edit, last on /),
    ]);
    // Bob's reload: his 👍 still pressed, Ann's taken away.
    await b.page.reload();
    await bobComment.getByRole('button', { name: '👍 1, you reacted', exact: true }).waitFor();
    await b.page
      .getByRole('list', { name: `Contributors of #${cr.number}` })
      .getByText('Bob', { exact: true })
      .waitFor();
    expect(ann.violations).toEqual([]);
    expect(b.violations).toEqual([]);
  });

  it('shows a revision’s pages, and a page edited twice as it was in its earlier revision', {
    timeout: 180_000,
  }, async () => {
    const space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Notebook' })).id;
    const merged = async (subject: string, changes: unknown[]) => {
      const cr = await changeRequest(space, subject, changes);
      await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${cr.id}/merge`);
      return (await v1(acme.token, 'GET', `/spaces/${space}/content`)).id as string;
    };
    const first = await merged('First notes', [
      { operation: 'insert_page', title: 'Notes', document: { markdown: 'The first text.' } },
      { operation: 'insert_page', title: 'Extra', document: { markdown: 'More.' } },
    ]);
    const notes = (await v1(acme.token, 'GET', `/spaces/${space}/content/path/notes`)).id;
    await merged('Better notes', [
      { operation: 'update_page', page: notes, title: 'Notes today', document: { markdown: 'The second text.' } },
    ]);
    const pathNow = (await v1(acme.token, 'GET', `/spaces/${space}/content/page/${notes}`)).path;
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const { page, violations } = await signedIn(browser, 'ann@acme.io');

    // From the history: the earlier revision's screen, its page tree.
    await page.goto(`${base}/~/history`);
    const entry = page
      .getByRole('list', { name: 'Revisions' })
      .getByRole('listitem')
      .filter({ hasText: 'First notes' });
    await entry.locator('summary').click();
    await entry.getByRole('link', { name: 'Open this revision and its pages' }).click();
    await page.waitForURL(`${base}/~/revisions/${first}`);
    const tree = page.getByRole('navigation', { name: 'Pages in this revision' });
    await tree.getByRole('link', { name: 'Extra' }).waitFor();
    expect(await tree.getByRole('link').allTextContents()).toEqual(['Notes', 'Extra']);

    // Its "Notes", as it was then: the first text, under the revision's label, with the link to the page now.
    await tree.getByRole('link', { name: 'Notes' }).click();
    await page.waitForURL(`${base}/~/revisions/${first}/notes`);
    expect(await tree.getByRole('link', { name: 'Notes' }).getAttribute('aria-current')).toBe('page');
    const shown = page.getByRole('region', { name: `Notes, as it was in revision ${first}` });
    await shown.getByText('The first text.').waitFor();
    expect(await shown.getByText('The second text.').count()).toBe(0);
    await shown.getByRole('heading', { name: 'Notes', level: 1 }).waitFor();
    await shown.getByRole('note').getByText(`As it was in revision ${first}`).waitFor();
    const now = shown.getByRole('link', { name: 'Open the current page “Notes today”' });
    await now.waitFor();
    await looks(page, 'revision-page');

    // Its links to pages stay in the revision: "Next", Extra as it was then.
    await shown.locator('.site-article').getByRole('link', { name: /Extra/ }).click();
    await page.waitForURL(`${base}/~/revisions/${first}/extra`);
    await page
      .getByRole('region', { name: `Extra, as it was in revision ${first}` })
      .getByText('More.')
      .waitFor();
    expect(await tree.getByRole('link', { name: 'Extra' }).getAttribute('aria-current')).toBe('page');
    await page.goBack();

    // The page as it is now.
    await now.click();
    await page.waitForURL(`${base}/${pathNow}`);
    await page.getByText('The second text.').waitFor();
    // An unknown page of the revision says so.
    await page.goto(`${base}/~/revisions/${first}/nope`);
    await page.getByRole('alert').getByText('This revision has no page at “nope”.').waitFor();
    expect(violations).toEqual([]);
  });
});
