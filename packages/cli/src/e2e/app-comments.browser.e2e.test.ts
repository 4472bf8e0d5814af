import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';

// Comments on a part of a page (docs/app.md, "Comments on selections, nested blocks and in the editor"): on text
// selected in the review's block view (the quote kept by the API and shown above the thread after a reload), on a
// nested block (a list item), and in the editor (Ctrl-Alt-M on the block of the caret, markers opening the threads).
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

const { p, acme, signedIn, v1, changeRequest } = useMailedInstance();

const GUIDE = [
  'Start here.',
  '{% hint style="info" %}\nFirst advice.\n\nInstall the synergistic toolkit first.\n{% endhint %}',
  '* Alpha\n* Beta\n* Gamma',
  'Keep this line.',
].join('\n\n');

describe.skipIf(!hasChromium)('comments on selections, nested blocks and in the editor, in Chromium', () => {
  const browser = useChromium();

  it('comments on a selection and on a list item in the review, and on blocks in the editor', {
    timeout: 180_000,
  }, async () => {
    const space = (await v1(acme.token, 'POST', `/orgs/${acme.organization.id}/spaces`, { title: 'Guides' })).id;
    const cr = await changeRequest(space, 'New guide', [
      { operation: 'insert_page', title: 'Guide', document: { markdown: GUIDE } },
    ]);
    const guide = (await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${cr.id}/content/path/guide`)).id;
    const base = `${p.url}/o/${acme.organization.id}/s/${space}`;
    const ann = await signedIn(browser, 'ann@acme.io');
    const page = ann.page;

    // The review: the page's blocks.
    await page.goto(`${base}/~/changes/${cr.number}/~/review`);
    await page.getByRole('button', { name: 'Show the changes of Guide' }).click();
    const diff = page.getByRole('region', { name: 'Changes of Guide' });
    const hint = diff.locator('.cr-block', { hasText: 'First advice.' });
    await hint.waitFor();

    // Select "synergistic" in the hint's second paragraph: "Comment on the selection" appears.
    expect(await hint.getByRole('button', { name: 'Comment on the selection' }).count()).toBe(0);
    await hint.locator('p', { hasText: 'Install the synergistic' }).evaluate((p) => {
      const text = Array.from(p.childNodes).find(
        (n) => n.nodeType === 3 && (n as Text).data.includes('synergistic'),
      ) as Text;
      const at = text.data.indexOf('synergistic');
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 'synergistic'.length);
      const s = window.getSelection()!;
      s.removeAllRanges();
      s.addRange(range);
    });
    await hint.getByRole('button', { name: 'Comment on the selection' }).click();
    await hint
      .locator('.cr-block-form')
      .getByText('On the text selected in the Paragraph “Install the synergistic')
      .waitFor();
    await hint.locator('.cr-block-form blockquote').getByText('synergistic', { exact: true }).waitFor();
    const field = hint.getByLabel('Your comment on the selection');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Which toolkit <b>exactly</b>?');
    await hint.getByRole('button', { name: 'Comment on the selection' }).click();
    const quoted = hint.getByRole('article', { name: 'Comment by Ann' });
    await quoted.getByText('Which toolkit <b>exactly</b>?').waitFor();
    expect(await quoted.getByLabel('Quoted text').textContent()).toBe('synergistic');
    await quoted.getByText('on the Paragraph “Install the synergistic toolkit first.”').waitFor();

    // The API keeps the quote: the nested block's id and where the text starts in it.
    const [posted] = (await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${cr.id}/comments`)).items;
    expect(posted.target).toMatchObject({
      page: { id: guide },
      node: { id: expect.stringMatching(/^b[0-9a-z]+\.0\/1$/) },
      quote: { text: 'synergistic', offset: 'Install the '.length },
    });

    // A nested block: "Beta", chosen in the form of the list's block, with the keyboard.
    const list = diff.locator('.cr-block', { hasText: 'Alpha' });
    await list.getByRole('button', { name: 'Comment on this block' }).press('Enter');
    await list.getByLabel('Comment on', { exact: true }).selectOption({ label: '– List item “Beta”' });
    await list.getByLabel('Your comment on this block').fill('Beta is renamed.');
    await list.getByRole('button', { name: 'Comment on the block' }).click();
    await list.getByRole('article', { name: 'Comment by Ann' }).getByText('on the List item “Beta”').waitFor();

    // After a reload, the quote is still above its thread; the comments section lists it too.
    await page.reload();
    await page.getByRole('button', { name: 'Show the changes of Guide' }).click();
    await hint.getByRole('article', { name: 'Comment by Ann' }).getByLabel('Quoted text').waitFor();
    expect(await hint.getByText('1 comment', { exact: true }).count()).toBe(1);
    expect(await list.getByText('1 comment', { exact: true }).count()).toBe(1);
    await page.getByRole('list', { name: 'Comments on blocks' }).getByLabel('Quoted text').waitFor();
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-comments-review.png'), fullPage: true });

    // The editor, on the page of the change request: markers on the blocks with open comments.
    await page.goto(`${base}/~/changes/${cr.number}/guide?edit`);
    const editor = page.getByRole('textbox', { name: 'Content of Guide' });
    await editor.getByText('Keep this line.').waitFor();
    const markers = editor.locator('.comment-marker');
    await expect.poll(() => markers.count()).toBe(2);
    expect(await markers.allTextContents()).toEqual(['1 comment', '1 comment']);
    // A marker opens the block's threads, the quote above its thread.
    await markers.first().click();
    const panel = page.getByRole('region', { name: 'Comments on the block' });
    await panel.getByRole('heading', { name: /^Comments on the Hint/ }).waitFor();
    expect(await panel.getByLabel('Quoted text').textContent()).toBe('synergistic');
    await panel.getByRole('button', { name: 'Close the comments' }).click();

    // Ctrl-Alt-M on the block of the caret, with its text selected: a comment with the quote.
    await editor.getByText('Keep this line.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Control+Alt+KeyM');
    await panel.getByRole('heading', { name: 'Comments on the Paragraph “Keep this line.”' }).waitFor();
    await panel.getByText('No comment on this block yet.').waitFor();
    const mine = panel.getByLabel('Your comment on the selection');
    await expect.poll(() => mine.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Is this line needed?');
    await panel.getByRole('button', { name: 'Comment on the selection' }).click();
    await panel.getByRole('article', { name: 'Comment by Ann' }).getByText('Is this line needed?').waitFor();
    await expect.poll(() => markers.count()).toBe(3);
    // The caret in a paragraph of the hint: the comment goes on that paragraph, a part of the hint.
    await panel.getByRole('button', { name: 'Close the comments' }).click();
    await editor.getByText('First advice.').click();
    await page.keyboard.press('Control+Alt+KeyM');
    await panel.getByRole('heading', { name: 'Comments on the Paragraph “First advice.” (in the Hint' }).waitFor();
    // the hint's other thread is listed, saying which part it is on
    await panel.getByText('on the Paragraph “Install the synergistic toolkit first.”').waitFor();
    await page.keyboard.type('Too vague.');
    await panel.getByRole('button', { name: 'Comment on the block' }).click();
    await panel.getByRole('article', { name: 'Comment by Ann' }).getByText('Too vague.').waitFor();
    await expect.poll(() => editor.locator('.comment-marker').first().textContent()).toBe('2 comments');
    const comments = (await v1(acme.token, 'GET', `/spaces/${space}/change-requests/${cr.id}/comments`)).items;
    const vague = comments.find((c: any) => c.body.markdown === 'Too vague.');
    expect(vague.target.node.id).toBe(posted.target.node.id.replace(/\/1$/, '/0'));
    expect(vague.target.quote).toBeUndefined();
    // typing goes on in the editor; nothing of the comments went into the page
    expect(await editor.textContent()).not.toContain('Is this line needed?');
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-comments-editor.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.screenshot({ path: join(SHOTS, 'quire-app-comments-editor-375.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'quire-app-comments-editor-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Back in the review, the editor's comment is under its block with its quote.
    await page.goto(`${base}/~/changes/${cr.number}/~/review`);
    await page.getByRole('button', { name: 'Show the changes of Guide' }).click();
    const last = diff.locator('.cr-block', { hasText: 'Keep this line.' });
    const fromEditor = last.getByRole('article', { name: 'Comment by Ann' });
    await fromEditor.getByText('Is this line needed?').waitFor();
    expect(await fromEditor.getByLabel('Quoted text').textContent()).toBe('Keep this line.');
    await hint.getByRole('article', { name: 'Comment by Ann' }).getByText('on the Paragraph “First advice.”').waitFor();
    expect(ann.violations).toEqual([]);
  });
});
