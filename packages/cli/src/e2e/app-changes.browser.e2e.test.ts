import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { addUser, type Seat } from './harness.ts';
import { useMailedInstance } from './mailbox.ts';

// The app's change-request screens (docs/app.md, "Change requests"): the list, the review screen (what changed,
// block by block), reviewers and reviews by a second member, comments with replies and resolve, the merge rules
// before the merge button, merge, and update from main showing conflicts. Everything through /v1.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

/** Ann's instance, her signed-in pages (watched for CSP violations) and /v1 calls. */
const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();
let bob: Seat;
beforeAll(async () => {
  bob = await addUser(p, acme.organization.id, 'bob@acme.io', 'review', 'Bob');
  await p.awaitMembers([bob.user.id]);
});

/** A 1×1 PNG. */
const DOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const WELCOME = 'Hello writers.\n\nKeep this line.\n\nOld ending.\n';

describe.skipIf(!hasChromium)('change requests in the app, in Chromium', () => {
  const browser = useChromium();
  let space: string;
  let welcome: string;

  beforeAll(async () => {
    space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Handbook' })).id;
    const first = await changeRequest(space, 'First pages', [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: WELCOME } },
    ]);
    await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${first.id}/merge`);
    welcome = (await v1(acme.token, 'GET', `/spaces/${space}/content/path/welcome`)).id;
    await v1(acme.token, 'PATCH', `/spaces/${space}`, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] },
    });
  });

  it('lists, opens, renames, shows the diff, gets reviewed by a second member, comments and merges', {
    timeout: 180_000,
  }, async () => {
    const cr = await changeRequest(space, 'Reword', [
      {
        operation: 'update_page',
        page: welcome,
        document: { markdown: WELCOME.replace('Old ending.', 'New ending.') },
      },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: 'Ask us anything.' } },
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: DOT_PNG }] },
    ]);
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const ann = await signedIn(browser, 'ann@acme.io');
    const page = ann.page;

    // The list, reached from the space screen.
    await page.goto(base);
    await page.getByRole('link', { name: 'Change requests' }).click();
    await page.getByRole('heading', { name: 'Change requests', level: 1 }).waitFor();
    await page.getByRole('link', { name: `#${cr.number} Reword` }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Merged' }).click();
    await page.getByRole('link', { name: /#1 First pages/ }).waitFor();
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('link', { name: `#${cr.number} Reword` }).click();
    await page.waitForURL(`${base}/~/changes/${cr.number}/~/review`);

    // Rename.
    await page.getByRole('heading', { name: `#${cr.number} Reword`, level: 1 }).waitFor();
    await page.getByRole('button', { name: `Rename #${cr.number}` }).click();
    const subject = page.getByLabel(`Subject of #${cr.number}`);
    expect(await subject.evaluate((el) => el === document.activeElement)).toBe(true);
    await subject.fill('Reword the welcome <b>page</b>');
    await page.getByRole('button', { name: 'Save subject' }).click();
    await page.getByRole('heading', { name: `#${cr.number} Reword the welcome <b>page</b>`, level: 1 }).waitFor();

    // What changed: one page edited (its blocks before and after), one added.
    const changes = page.getByRole('region', { name: 'What changed' });
    await changes.getByText('Edited').waitFor();
    expect(await changes.locator('.cr-change').allTextContents()).toEqual([
      expect.stringMatching(/^Edited Welcome/),
      expect.stringMatching(/^Added FAQ/),
    ]);
    // The uploaded picture: a download link and the picture itself (loaded under the CSP).
    await changes.getByText('File added: dot.png').waitFor();
    expect(await changes.getByRole('link', { name: 'dot.png' }).getAttribute('href')).toMatch(/^\/v1\/downloads\//);
    const picture = changes.getByRole('img', { name: 'dot.png (uploaded picture)' });
    await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    await page.getByRole('button', { name: 'Show the changes of Welcome' }).click();
    const diff = page.getByRole('region', { name: 'Changes of Welcome' });
    await diff.getByText('1 block added, 1 removed.').waitFor();
    expect(await diff.locator('.cr-block.cr-removed').allTextContents()).toEqual([
      expect.stringContaining('Old ending.'),
    ]);
    expect(await diff.locator('.cr-block.cr-added').allTextContents()).toEqual([
      expect.stringContaining('New ending.'),
    ]);
    expect(await diff.locator('.cr-block.cr-same').count()).toBe(2);

    // The merge rules, before the button: not met, so the button is disabled.
    const merge = page.getByRole('region', { name: 'Merge' });
    await merge.locator('.cr-rules li.unmet').waitFor();
    expect(await merge.getByRole('button', { name: `Merge #${cr.number}` }).isDisabled()).toBe(true);

    // The author does not review their own change request (their reviews count for no rule).
    await page.getByText('You opened this change request').waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    // A reviewer requested, and a comment.
    await page.getByLabel('Request a review from').selectOption({ label: 'Bob (bob@acme.io)' });
    await page.getByRole('button', { name: 'Request review' }).click();
    await page.getByRole('heading', { name: 'Awaiting a review from' }).waitFor();
    await page.getByRole('button', { name: 'Withdraw the request to Bob' }).waitFor();
    await page.getByLabel('New comment').fill('Is the **ending** right?');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.getByRole('article', { name: 'Comment by Ann' }).waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-review.png'), fullPage: true });

    // Bob, in his own browser session: replies and approves.
    const bobs = await signedIn(browser, 'bob@acme.io');
    await bobs.page.goto(`${base}/~/changes/${cr.number}/~/review`);
    await bobs.page.getByRole('article', { name: 'Comment by Ann' }).waitFor();
    await bobs.page.getByLabel('Reply to Ann').fill('Yes, it is.');
    await bobs.page.getByRole('button', { name: 'Reply', exact: true }).click();
    await bobs.page.getByRole('list', { name: 'Replies' }).getByText('Yes, it is.').waitFor();
    await bobs.page.getByLabel('Review comment (optional)').fill('Ship it.');
    await bobs.page.getByRole('button', { name: 'Approve' }).click();
    await bobs.page.locator('.cr-reviews').getByText('Approved').waitFor();
    expect(await axe(bobs.page)).toEqual([]);
    await bobs.page.screenshot({ path: join(SHOTS, 'quire-app-change-review-bob.png'), fullPage: true });
    expect(bobs.violations).toEqual([]);
    await bobs.page.close();

    // Ann: the rule is met, the comment resolved, the merge goes through.
    await page.reload();
    await page.locator('.cr-reviews').getByText('Ship it.').waitFor();
    expect(await page.getByText('No review is awaited.').count()).toBe(1);
    await merge.locator('.cr-rules li.met').waitFor();
    // The rule's sentence names the approver by name (the API's sentence names user ids).
    expect(await merge.locator('.cr-rules li.met').textContent()).toContain('Bob');
    await page.getByRole('button', { name: 'Resolve the comment of Ann' }).click();
    await page.getByRole('button', { name: 'Reopen the comment of Ann' }).waitFor();
    await merge.getByRole('button', { name: `Merge #${cr.number}` }).click();
    await page.getByRole('status').getByText('Merged into the main content.').waitFor();
    await page.locator('.cr-status-merged').waitFor();
    expect((await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${cr.id}`)).status).toBe('merged');
    expect((await v1(acme.token, 'GET', `/spaces/${space}/content/path/faq`)).title).toBe('FAQ');
    expect(ann.violations).toEqual([]);
    await page.close();
  });

  it('updates a change request from main and shows its conflicts', { timeout: 120_000 }, async () => {
    await v1(acme.token, 'PATCH', `/spaces/${space}`, { mergeRules: { type: 'none' } });
    const ending = (text: string) => [
      { operation: 'update_page', page: welcome, document: { markdown: WELCOME.replace('Old ending.', text) } },
    ];
    const mine = await changeRequest(space, 'My ending', ending('Ending of mine.'));
    const theirs = await changeRequest(space, 'Their ending', ending('Ending of theirs.'));
    await v1(acme.token, 'POST', `/spaces/${space}/change-requests/${theirs.id}/merge`);

    const { page, violations } = await signedIn(browser, 'ann@acme.io');
    await page.goto(`${p.url}/o/${acme.organization.id}/s/${space}/~/changes/${mine.number}/~/review`);
    const merge = page.getByRole('region', { name: 'Merge' });
    await merge.getByText('The main content has changed').waitFor();
    await merge.getByRole('button', { name: `Update #${mine.number} from main` }).click();
    await merge.getByText('Updated, with conflicts').waitFor();
    await page.getByRole('region', { name: 'What changed' }).getByText('Conflict').waitFor();
    await merge.getByText('This change request conflicts with the main content.').waitFor();
    // The conflicted page opens on its changes: the conflict block, both versions, each under its side's title.
    await page.getByRole('button', { name: 'Hide the changes of Welcome' }).waitFor();
    const conflict = page.getByRole('region', { name: 'Conflict' });
    expect(await conflict.getByRole('region', { name: 'Version of main' }).textContent()).toContain(
      'Ending of theirs.',
    );
    expect(
      await conflict.getByRole('region', { name: `Version of change request #${mine.number}` }).textContent(),
    ).toContain('Ending of mine.');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-conflicts.png'), fullPage: true });
    // Keep this change request's version: the block is replaced by it, the conflict is gone, the merge goes through.
    await conflict.getByRole('button', { name: `Keep change request #${mine.number}` }).click();
    await page.getByRole('region', { name: 'Conflict' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => !document.body.textContent?.includes('conflicts with the main content'));
    const resolved = await v1(
      acme.token,
      'GET',
      `/spaces/${space}/change-requests/${mine.id}/content/page/${welcome}?format=markdown`,
    );
    expect(resolved.markdown).toContain('Ending of mine.');
    expect(resolved.markdown).not.toContain('Ending of theirs.');
    expect(resolved.markdown).not.toContain('conflict');
    await merge.getByRole('button', { name: `Merge #${mine.number}` }).click();
    await page.getByRole('status').getByText('Merged into the main content.').waitFor();
    expect(
      (await v1(acme.token, 'GET', `/spaces/${space}/content/page/${welcome}?format=markdown`)).markdown,
    ).toContain('Ending of mine.');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('is usable at 375 px, light and dark', { timeout: 60_000 }, async () => {
    const { page } = await signedIn(browser, 'ann@acme.io', {
      viewport: { width: 375, height: 740 },
      colorScheme: 'dark',
    });
    await page.goto(`${p.url}/o/${acme.organization.id}/s/${space}/~/changes/2/~/review`);
    await page.getByRole('button', { name: 'Show the changes of Welcome' }).click();
    await page.getByRole('region', { name: 'Changes of Welcome' }).getByText('block added').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-375-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await axe(page)).toEqual([]);
    await page.close();
  });
});
