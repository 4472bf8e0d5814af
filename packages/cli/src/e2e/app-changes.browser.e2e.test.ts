import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { addUser, type Seat } from './harness.ts';
import { useMailedInstance } from './mailbox.ts';

// The app's change-request screens (docs/app.md, "Change requests"): the list, the review screen (what changed,
// block by block), reviewers and reviews by a second member, comments with replies and resolve (on the change
// request and on a block), editing and deleting one's comments, the merge rules before the merge button, merge, and
// update from main showing conflicts, resolved here or opened in the editor. Everything through /v1.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

/** Ann's instance, her signed-in pages (watched for CSP violations) and /v1 calls. */
const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();
let bob: Seat;
beforeAll(async () => {
  bob = await addUser(p, acme.organization.id, 'bob@acme.io', 'review', 'Bob');
  await p.awaitMembers([bob.user.id]);
});

/** The markdown of a page (`…/content/page/{id}` of the space or of a change request), read by Ann. */
const markdownAt = async (path: string): Promise<string> =>
  (await v1(acme.token, 'GET', `${path}?format=markdown`)).markdown;

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
    // Side by side (a wide screen's default): a row per block, each drawn by the site's renderer; the edited block's
    // two versions next to each other, the unchanged ones on both sides.
    await diff.getByText('1 block changed.').waitFor();
    expect(await page.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe('true');
    const old = diff.locator('.cr-block.cr-changed.cr-old');
    const now = diff.locator('.cr-block.cr-changed.cr-new');
    expect(await old.locator('.site-article .document p').textContent()).toBe('Old ending.');
    expect(await now.locator('.site-article .document p').textContent()).toBe('New ending.');
    const [left, right] = [(await old.boundingBox())!, (await now.boundingBox())!];
    expect(left.x + left.width).toBeLessThanOrEqual(right.x + 1);
    expect(Math.abs(left.y - right.y)).toBeLessThan(2);
    expect(await diff.locator('.cr-block.cr-same').count()).toBe(4);
    // the words the edit changed, marked in each version
    expect(await old.locator('mark.cr-words').allTextContents()).toEqual(['Old']);
    expect(await now.locator('mark.cr-words').allTextContents()).toEqual(['New']);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-diff-split.png'), fullPage: true });
    // Inline: one column, the earlier version above the new one (the choice kept in this browser).
    await page.getByRole('button', { name: 'Inline' }).click();
    await diff.locator('.cr-inline').waitFor();
    expect(await diff.locator('.cr-block.cr-same').count()).toBe(2);
    expect(await diff.locator('.cr-block').allTextContents()).toEqual([
      expect.stringContaining('Hello writers.'),
      expect.stringContaining('Keep this line.'),
      expect.stringMatching(/Changed, before: .*Old ending\./),
      expect.stringMatching(/Changed, after: .*New ending\./),
    ]);
    expect((await old.boundingBox())!.y).toBeLessThan((await now.boundingBox())!.y);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-diff-inline.png'), fullPage: true });

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
    // Bob comments on the block "New ending." with the keyboard only, then edits his comment.
    await bobs.page.getByRole('button', { name: 'Show the changes of Welcome' }).click();
    const bobsBlock = bobs.page.locator('.cr-block.cr-new', { hasText: 'New ending.' });
    await bobsBlock.getByRole('button', { name: 'Comment on this block' }).press('Enter');
    const field = bobsBlock.getByLabel('Your comment on this block');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await bobs.page.keyboard.type('Say “new” twice?');
    await bobs.page.keyboard.press('Tab');
    await bobs.page.keyboard.press('Enter');
    await bobsBlock.getByText('1 comment', { exact: true }).waitFor();
    const bobsComment = bobsBlock.getByRole('article', { name: 'Comment by Bob' });
    await bobsComment.getByText('Say “new” twice?').waitFor();
    await bobsComment.getByRole('button', { name: 'Edit your comment' }).click();
    await bobsComment.getByLabel('Edit your comment').fill('Say it twice?');
    await bobsComment.getByRole('button', { name: 'Save the comment' }).click();
    await bobsComment.getByText('Say it twice?').waitFor();
    await bobsComment.getByText('(edited)').waitFor();
    // The comments section lists it among the comments on blocks; the other blocks have none.
    await bobs.page.getByRole('list', { name: 'Comments on blocks' }).getByText('Say it twice?').waitFor();
    expect(await bobs.page.getByRole('list', { name: 'Comments on this block' }).count()).toBe(1);
    expect(await axe(bobs.page)).toEqual([]);
    await bobs.page.screenshot({ path: join(SHOTS, 'quire-app-change-review-bob.png'), fullPage: true });
    expect(bobs.violations).toEqual([]);
    await bobs.page.close();

    // Ann: her review, open all along, shows Bob's review and comments when her window gets the focus back (no
    // reload); the rule is met, the comment resolved, the merge goes through.
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.dispatchEvent(new Event('focus')));
          return page.locator('.cr-reviews').getByText('Ship it.').count();
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe(1);
    await page.getByRole('list', { name: 'Comments on blocks' }).getByText('Say it twice?').waitFor();
    expect(await page.getByText('No review is awaited.').count()).toBe(1);
    await merge.locator('.cr-rules li.met').waitFor();
    // The rule's sentence names the approver by name (the API's sentence names user ids).
    expect(await merge.locator('.cr-rules li.met').textContent()).toContain('Bob');
    await page.getByRole('button', { name: 'Resolve the comment of Ann' }).click();
    await page.getByRole('button', { name: 'Reopen the comment of Ann' }).waitFor();
    // Bob's comment on the block, under the block: Ann replies, edits her reply, deletes another, resolves it.
    // Still open from before: the screen was not reloaded.
    await page.getByRole('button', { name: 'Hide the changes of Welcome' }).waitFor();
    const block = page.locator('.cr-block.cr-new', { hasText: 'New ending.' });
    const thread = block.getByRole('article', { name: 'Comment by Bob' });
    await thread.getByText('Say it twice?').waitFor();
    expect(await thread.getByRole('button', { name: 'Edit your comment' }).count()).toBe(0);
    for (const text of ['Once is enogh.', 'A typo.']) {
      await thread.getByLabel('Reply to Bob').fill(text);
      await thread.getByRole('button', { name: 'Reply', exact: true }).click();
      await thread.getByRole('list', { name: 'Replies' }).getByText(text).waitFor();
    }
    const replies = thread.getByRole('article', { name: 'Reply by Ann' });
    await replies.first().getByRole('button', { name: 'Edit your reply' }).click();
    await replies.first().getByLabel('Edit your reply').fill('Once is enough.');
    await replies.first().getByRole('button', { name: 'Save the reply' }).click();
    await replies.first().getByText('Once is enough.').waitFor();
    await replies.last().getByRole('button', { name: 'Delete the reply of Ann' }).click();
    await replies.last().getByRole('button', { name: 'Yes, delete the reply' }).click();
    await thread.getByText('A typo.').waitFor({ state: 'detached' });
    expect(await replies.allTextContents()).toEqual([expect.stringContaining('Once is enough.')]);
    await thread.getByRole('button', { name: 'Resolve the comment of Bob' }).click();
    await thread.getByRole('button', { name: 'Reopen the comment of Bob' }).waitFor();
    const [onBlock] = (await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${cr.id}/comments`)).items.filter(
      (c: any) => c.target.node,
    );
    expect(onBlock).toMatchObject({ status: 'resolved', replies: 1, target: { page: { id: welcome } } });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-block-comments.png'), fullPage: true });
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
    // The page's badge (the conflicted page also opens on its changes, which say "Conflict" too).
    await page.getByRole('region', { name: 'What changed' }).locator('.cr-badge', { hasText: 'Conflict' }).waitFor();
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
    // both versions drawn by the site's renderer, side by side
    const [mineBox, mainBox] = [
      (await conflict.getByRole('region', { name: `Version of change request #${mine.number}` }).boundingBox())!,
      (await conflict.getByRole('region', { name: 'Version of main' }).boundingBox())!,
    ];
    expect(mainBox.x + mainBox.width).toBeLessThanOrEqual(mineBox.x);
    expect(Math.abs(mainBox.y - mineBox.y)).toBeLessThan(2);
    expect(await conflict.locator('.site-article .document p', { hasText: 'Ending of mine.' }).count()).toBe(1);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-conflicts.png'), fullPage: true });
    // "Edit in the editor": the page in the editor, on this change request, the conflict's sides editable there.
    const review = page.url();
    await conflict.getByRole('link', { name: 'Edit in the editor' }).click();
    await page.waitForURL(`${p.url}/o/${acme.organization.id}/s/${space}/~/changes/${mine.number}/welcome?edit`);
    const sides = page.locator('[contenteditable="true"] [data-gb-type="conflict-side"]');
    await expect.poll(() => sides.count(), { timeout: 20_000 }).toBe(2);
    expect(await sides.last().textContent()).toContain('Ending of mine.');
    // The writer edits their side there (autosaved to the change request), then keeps it in the review.
    await sides.last().getByText('Ending of mine.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited.');
    const inMine = `/spaces/${space}/change-requests/${mine.id}/content/page/${welcome}`;
    await expect.poll(() => markdownAt(inMine), { timeout: 15_000 }).toContain('Ending of mine. Edited.');
    await page.goto(review);
    await conflict
      .getByRole('region', { name: `Version of change request #${mine.number}` })
      .getByText('Edited.')
      .waitFor();
    // Keep this change request's version: the block is replaced by it, the conflict is gone, the merge goes through.
    await conflict.getByRole('button', { name: `Keep change request #${mine.number}` }).click();
    await page.getByRole('region', { name: 'Conflict' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => !document.body.textContent?.includes('conflicts with the main content'));
    const resolved = await markdownAt(inMine);
    expect(resolved).toContain('Ending of mine. Edited.');
    expect(resolved).not.toContain('Ending of theirs.');
    expect(resolved).not.toContain('conflict');
    await merge.getByRole('button', { name: `Merge #${mine.number}` }).click();
    await page.getByRole('status').getByText('Merged into the main content.').waitFor();
    expect(await markdownAt(`/spaces/${space}/content/page/${welcome}`)).toContain('Ending of mine. Edited.');
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
    await page.getByRole('region', { name: 'Changes of Welcome' }).getByText('1 block changed.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-375-dark.png'), fullPage: true });
    // Inline on a narrow screen; side by side there puts a row's versions one under the other.
    expect(await page.getByRole('button', { name: 'Inline' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Side by side' }).click();
    await page.locator('.cr-split').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-change-375-split-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await axe(page)).toEqual([]);
    await page.close();
  });
});
