import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@quire/kit';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, hasChromium, png, useChromium } from './browser.ts';
import { type Boot, bootstrap, type Platform, startPlatform } from './harness.ts';
import { type Mailbox, startMailbox, watchPage } from './mailbox.ts';

// The writer's whole journey (issue 40, item 7), in the browser only, as someone who never saw the API: sign in by
// the e-mail link, invite a second member, create a space, write and illustrate a page with the blocks of the `/`
// menu and markdown shortcuts (autosave opens the change request), get it reviewed by the second member in his own
// browser, resolve the conflict his edit of main made, merge, publish the space as a site and read the page there.
// axe-core on each screen; a screenshot of each screen. The instance's public URL is its real address, so the links
// of its e-mails and the published site's address are followed as they are.

/** Where the screenshots go: QUIRE_SCREENSHOTS, else test-artifacts/ at the repository's root (gitignored). */
const SHOTS =
  process.env.QUIRE_SCREENSHOTS ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../../test-artifacts');

let base: string;
let p: Platform;
let acme: Boot;
let mailbox: Mailbox;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  mailbox = await startMailbox(base);
  p = await startPlatform({ env: { PORT: String(port), QUIRE_PUBLIC_URL: base, QUIRE_SMTP_URL: mailbox.url } });
  // installing the instance: its first organization and administrator (`quire bootstrap`, as the README says)
  acme = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await p?.stop();
  await mailbox?.close();
});

describe.skipIf(!hasChromium)("a writer's journey in the app, in Chromium", () => {
  const browser = useChromium();
  let shot = 0;
  /** axe-core finds no serious violation on the screen; its screenshot is saved (`quire-journey-NN-name.png`). */
  const look = async (page: Page, name: string) => {
    expect(await axe(page), name).toEqual([]);
    shot += 1;
    // from the top: a sticky header scrolled along would be drawn in the middle of a full-page screenshot
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: join(SHOTS, `quire-journey-${String(shot).padStart(2, '0')}-${name}.png`),
      fullPage: true,
    });
  };

  it('signs in, writes and illustrates a page, gets it reviewed, resolves a conflict, merges and publishes it', {
    timeout: 300_000,
  }, async () => {
    const started = Date.now();
    const org = acme.organization.id;
    const ann = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const annSeen = await watchPage(ann);
    const pages = { ann } as Record<string, Page>;
    try {
      await journey();
    } catch (e) {
      // what each browser showed when the journey broke
      for (const [who, page] of Object.entries(pages))
        await page.screenshot({ path: join(SHOTS, `quire-journey-failed-${who}.png`), fullPage: true }).catch(() => {});
      throw e;
    }
    console.log(`the journey took ${((Date.now() - started) / 1000).toFixed(1)} s`);

    async function journey() {
      // ── Ann signs in by the link of her e-mail ─────────────────────────────────────────────────────────────
      await ann.goto(`${base}/`);
      await ann.waitForURL(`${base}/login?next=%2F`);
      await ann.getByLabel('E-mail address').fill('ann@acme.io');
      await look(ann, 'sign-in');
      await ann.getByRole('button', { name: 'Send me a sign-in link' }).click();
      await ann.getByText('a sign-in link is on its way').waitFor();
      await ann.goto(await mailbox.linkFor('ann@acme.io', '/login/verify', base));
      await ann.getByRole('button', { name: 'Sign in' }).click();
      await ann.getByRole('heading', { name: 'Your organizations' }).waitFor();
      await ann.getByRole('link', { name: 'Acme', exact: true }).click();
      await ann.getByRole('heading', { name: 'Acme', level: 1 }).waitFor();

      // ── She invites Bob as a reviewer; he accepts in his own browser ────────────────────────────────────────
      await ann.getByRole('link', { name: 'Settings: members, teams, audit log' }).click();
      await ann.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      await ann.getByLabel('E-mail').fill('bob@acme.io');
      await ann.getByLabel('Role', { exact: true }).selectOption('review');
      await ann.getByRole('button', { name: 'Invite' }).click();
      await ann.getByText('Invitation sent to bob@acme.io.').waitFor();
      const bob = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      pages.bob = bob;
      const bobSeen = await watchPage(bob);
      await bob.goto(await mailbox.linkFor('bob@acme.io', '/invites/accept', base));
      await bob.getByRole('button', { name: 'Accept and sign in' }).click();
      await bob.getByText('Signed in as bob').waitFor();

      // ── A space, with two pages: their first change opens change request #1, merged from the space ─────────
      await ann.getByRole('link', { name: '← Back to the organization' }).click();
      await ann.getByLabel('Title', { exact: true }).fill('Handbook');
      await ann.getByRole('button', { name: 'Create', exact: true }).click();
      await ann.getByRole('link', { name: 'Handbook', exact: true }).click();
      await ann.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor();
      const space = /\/s\/([^/?]+)/.exec(ann.url())![1]!;
      const spaceUrl = `${base}/o/${org}/s/${space}`;
      await ann.getByLabel('Page title').fill('Welcome');
      await ann.getByLabel('Content (markdown)').fill('Welcome to the handbook.\n');
      await ann.getByRole('button', { name: 'Add page' }).click();
      await ann.waitForURL(`${spaceUrl}/~/changes/1`);
      await ann.getByRole('link', { name: 'Welcome', exact: true }).waitFor();
      await ann.getByLabel('Page title').fill('Install');
      await ann.getByLabel('Content (markdown)').fill('Run the installer.\n');
      await ann.getByRole('button', { name: 'Add page' }).click();
      await ann.getByRole('link', { name: 'Install', exact: true }).waitFor();
      await look(ann, 'space-change-request');
      await ann.getByRole('button', { name: 'Merge change request #1' }).click();
      await ann.waitForURL(spaceUrl);

      // ── She edits Welcome: every block of the / menu, markdown shortcuts, an image and a file uploaded ───────
      await ann.getByRole('link', { name: 'Welcome', exact: true }).click();
      await ann.getByText('Welcome to the handbook.').waitFor();
      await ann.getByRole('link', { name: 'Edit' }).click();
      const editor = ann.getByRole('textbox', { name: 'Content of Welcome' });
      const keys = ann.keyboard;
      await editor.getByText('Welcome to the handbook.').click();
      await keys.press('End');
      await keys.type(' Ann wrote it in the browser.');
      // the first change opens a draft change request: the app moves to it, the editor stays
      await ann.waitForURL(`${spaceUrl}/~/changes/2/welcome?edit`);
      const menu = ann.getByRole('listbox', { name: 'Insert a block' });
      /** Types `/query`, checks the first choice is `label` and takes it with Enter. */
      const insert = async (query: string, label: string) => {
        await keys.type(`/${query}`);
        expect(await menu.getByRole('option', { selected: true }).textContent()).toContain(label);
        await keys.press('Enter');
        await menu.waitFor({ state: 'detached' });
      };
      /** Enter twice: a new paragraph in the block, then out of it (below it). */
      const leave = async () => {
        await keys.press('Enter');
        await keys.press('Enter');
      };
      /**
       * Selects a block that holds no text (its box, clicked until it is the selected node of a focused text: a click
       * coming back from the settings may leave the caret at the nearest text instead). `below`: then Enter, a
       * paragraph below it.
       */
      const select = async (atom: Locator) => {
        const selected = () =>
          atom.evaluate(
            (el) =>
              el.classList.contains('ProseMirror-selectednode') &&
              !!el.closest('.ProseMirror')?.contains(document.activeElement),
          );
        await atom.click();
        await expect
          .poll(async () => (await selected()) || (await atom.click().then(selected)), { timeout: 10_000 })
          .toBe(true);
      };
      const below = async (atom: Locator) => {
        await select(atom);
        await keys.press('Enter');
      };
      const settings = (title: string) => ann.getByRole('region', { name: `${title} settings` });

      await keys.press('Enter');
      await keys.type('## Before you start');
      await keys.press('Enter');
      await keys.type('Read **this** first.');
      await keys.press('Enter');
      await keys.type('- Download the installer');
      await keys.press('Enter');
      await keys.type('Run it');
      await leave();
      await insert('numbered', 'Numbered list');
      await keys.type('Open the app');
      await keys.press('Enter');
      await keys.type('Sign in');
      await leave();
      await keys.type('[ ] Read the guide');
      await leave();
      await keys.type('> Writers write, readers read.');
      await leave();
      await keys.type('```bash ');
      await keys.type('npm start');
      await keys.press('Enter');
      await keys.press('Enter');
      await keys.press('Enter');
      await insert('hint', 'Hint (info)');
      await keys.type('Keep your token secret.');
      await leave();
      await keys.type('!!!warning ');
      await keys.type('Back up first.');
      await leave();
      await insert('quote', 'Quote');
      await keys.type('Quoted from the menu.');
      await leave();
      await insert('code', 'Code block');
      await keys.type('quire --help');
      await keys.press('Enter');
      await keys.press('Enter');
      await keys.press('Enter');
      await insert('tasks', 'Task list');
      await keys.type('Tick me');
      await leave();
      await insert('ul', 'Bulleted list');
      await keys.type('A bullet from the menu');
      await leave();
      await insert('divider', 'Divider');
      await insert('h3', 'Heading 3');
      await keys.type('Details');
      await keys.press('Enter');
      await insert('h1', 'Heading 1');
      await keys.type('Reference');
      await keys.press('Enter');
      await insert('h2', 'Heading 2');
      await keys.type('Platforms');
      await keys.press('Enter');
      // a heading begun by mistake, turned back into text by the menu's Text
      await keys.type('### ');
      await insert('text', 'Text');
      await keys.type('Pick yours.');
      await keys.press('Enter');
      await insert('tabs', 'Tabs');
      await keys.type('On macOS, open the package.');
      await leave();
      await insert('expandable', 'Expandable');
      await keys.type('Hidden details.');
      await leave();
      await insert('stepper', 'Stepper');
      await keys.type('Second step.');
      await leave();
      await insert('columns', 'Columns');
      await keys.type('Right column.');
      await leave();
      await insert('conditional', 'Conditional content');
      await keys.type('Only for readers on the pro plan.');
      await settings('Conditional block').getByLabel('Condition').fill('visitor.claims.plan == "pro"');
      await editor.getByText('Only for readers on the pro plan.').click();
      await keys.press('End');
      await leave();
      await insert('math', 'Math');
      await select(editor.locator('.gb-math'));
      await settings('Math').getByLabel('Formula (TeX)').fill('E = mc^2');
      await below(editor.locator('.gb-math'));
      await insert('embed', 'Embed');
      await select(editor.locator('.gb-embed'));
      await settings('Embed').getByLabel('URL').fill('https://example.com/demo');
      await below(editor.locator('.gb-embed'));

      // an image: chosen through the file chooser, uploaded into the change request, shown; its alt text and caption
      const image = png(320, 120, [0x2a, 0x6f, 0xdb], [0xf0, 0x8c, 0x1e]);
      let chooser = ann.waitForEvent('filechooser');
      await insert('image', 'Image');
      await (await chooser).setFiles({ name: 'architecture.png', mimeType: 'image/png', buffer: image });
      await ann.getByText('Uploaded architecture.png.').waitFor({ timeout: 30_000 });
      const picture = editor.locator('.gb-image img');
      await expect.poll(() => picture.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(320);
      await select(editor.locator('.gb-image'));
      await settings('Image').getByLabel('Alt text').fill('Architecture diagram');
      await settings('Image').getByLabel('Caption').fill('How the pieces fit');
      await editor.getByText('Image: Architecture diagram · How the pieces fit').waitFor();
      await below(editor.locator('.gb-image'));
      chooser = ann.waitForEvent('filechooser');
      await insert('file', 'File');
      await (await chooser).setFiles({
        name: 'checklist.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('1. Install\n'),
      });
      await ann.getByText('Uploaded checklist.txt.').waitFor({ timeout: 30_000 });
      await editor.getByText('File: checklist.txt').waitFor();
      await below(editor.locator('.gb-file'));
      // a card linking to another page, chosen in the page picker
      await insert('page', 'Page reference');
      const picker = ann.getByRole('dialog', { name: 'Insert a page reference' });
      await picker.getByLabel('Filter pages').fill('install');
      await picker.getByRole('option', { name: /Install/ }).waitFor();
      await keys.press('Enter');
      await picker.waitFor({ state: 'detached' });
      await editor.getByText('Page link: Install').waitFor();
      await below(editor.locator('.gb-content-ref'));
      await insert('table', 'Table');
      await keys.type('42');
      await ann.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
      await look(ann, 'editor');

      // ── Done: the page of the change request; its review, where she asks Bob ───────────────────────────────
      await ann.getByRole('button', { name: 'Done' }).click();
      await ann.waitForURL(`${spaceUrl}/~/changes/2/welcome`);
      // the page as the published site renders it: the hint is a note labelled with its style
      await ann.getByRole('note').getByText('Warning', { exact: true }).waitFor();
      // the picture of the change request, its caption, and the file
      const shown = ann.locator('article .image img');
      await expect.poll(() => shown.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(320);
      expect(await shown.getAttribute('alt')).toBe('Architecture diagram');
      await ann.locator('article .image').getByText('How the pieces fit').waitFor();
      await ann.getByRole('link', { name: 'checklist.txt' }).waitFor();
      await look(ann, 'page-of-change-request');
      await ann.getByRole('link', { name: /^Review #2/ }).click();
      await ann.getByRole('heading', { name: '#2 Edit Welcome', level: 1 }).waitFor();
      await ann.getByRole('region', { name: 'What changed' }).getByText('Edited').waitFor();
      await ann.getByLabel('Request a review from').selectOption({ label: 'bob (bob@acme.io)' });
      await ann.getByRole('button', { name: 'Request review' }).click();
      await ann.getByRole('button', { name: 'Withdraw the request to bob' }).waitFor();
      await look(ann, 'review-requested');

      // ── Bob finds the change request in the app and approves it ────────────────────────────────────────────
      await bob.goto(`${base}/`);
      await bob.getByRole('link', { name: 'Acme', exact: true }).click();
      await bob.getByRole('link', { name: 'Handbook', exact: true }).click();
      await bob.getByRole('link', { name: 'Change requests' }).click();
      await bob.getByRole('link', { name: '#2 Edit Welcome' }).click();
      await bob.getByRole('heading', { name: '#2 Edit Welcome', level: 1 }).waitFor();
      await bob.getByRole('button', { name: 'Show the changes of Welcome' }).click();
      await bob
        .getByRole('region', { name: 'Changes of Welcome' })
        .getByText('Keep your token secret.')
        .first()
        .waitFor();
      await bob.getByLabel('Review comment (optional)').fill('Clear, and the diagram helps.');
      await bob.getByRole('button', { name: 'Approve' }).click();
      await bob.locator('.cr-reviews').getByText('Approved').waitFor();
      await look(bob, 'review-approved');

      // ── …and, meanwhile, rewords the same paragraph on main: his own change request, merged ────────────────
      await bob.getByRole('link', { name: 'Space', exact: true }).click();
      await bob.getByRole('link', { name: 'Welcome', exact: true }).click();
      await bob.getByRole('link', { name: 'Edit' }).click();
      const bobEditor = bob.getByRole('textbox', { name: 'Content of Welcome' });
      await bobEditor.getByText('Welcome to the handbook.').click();
      await bob.keyboard.press('End');
      await bob.keyboard.press('Backspace');
      await bob.keyboard.type(', readers.');
      await bob.waitForURL(`${spaceUrl}/~/changes/3/welcome?edit`);
      await bob.getByText('Saved', { exact: true }).waitFor({ timeout: 20_000 });
      await bob.getByRole('button', { name: 'Done' }).click();
      await bob.getByRole('button', { name: 'Merge change request #3' }).click();
      await bob.waitForURL(spaceUrl);
      await bob.getByText('Welcome to the handbook, readers.').waitFor();

      // ── Ann updates hers from main: a conflict, resolved by keeping her version; then the merge ─────────────
      await ann.reload();
      const merge = ann.getByRole('region', { name: 'Merge' });
      await merge.getByText('The main content has changed').waitFor();
      await merge.getByRole('button', { name: 'Update #2 from main' }).click();
      await merge.getByText('Updated, with conflicts').waitFor();
      const conflict = ann.getByRole('region', { name: 'Conflict' });
      await conflict.waitFor();
      expect(await conflict.getByRole('region', { name: 'Version of main' }).textContent()).toContain(
        'Welcome to the handbook, readers.',
      );
      expect(await conflict.getByRole('region', { name: 'Version of change request #2' }).textContent()).toContain(
        'Ann wrote it in the browser.',
      );
      await look(ann, 'conflict');
      await conflict.getByRole('button', { name: 'Keep change request #2' }).click();
      await ann.getByRole('region', { name: 'Conflict' }).waitFor({ state: 'detached' });
      await ann.waitForFunction(() => !document.body.textContent?.includes('conflicts with the main content'));
      await merge.getByRole('button', { name: 'Merge #2' }).click();
      await ann.getByRole('status').getByText('Merged into the main content.').waitFor();
      await look(ann, 'merged');

      // ── She publishes the space as a site, and reads the page there ────────────────────────────────────────
      await ann.getByRole('link', { name: 'Space', exact: true }).click();
      await ann.getByRole('link', { name: '← Organization' }).click();
      await ann.getByRole('link', { name: 'Settings: members, teams, audit log' }).click();
      await ann.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Sites' }).click();
      await ann.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
      await ann.getByLabel('Title of the site').fill('Acme Handbook');
      await ann.getByLabel('Space to publish').selectOption({ label: 'Handbook' });
      await ann.getByRole('button', { name: 'Create site' }).click();
      await ann.getByRole('heading', { name: 'Acme Handbook', level: 1 }).waitFor();
      await ann.getByRole('list', { name: 'Spaces of the site' }).getByText('Handbook', { exact: true }).waitFor();
      await ann.getByRole('button', { name: 'Publish Acme Handbook', exact: true }).click();
      await ann.getByRole('button', { name: 'Unpublish Acme Handbook' }).waitFor();
      await look(ann, 'site-published');
      const address = ann.locator('dl.facts a');
      expect(await address.textContent()).toMatch(new RegExp(`^${base}/sites/`));
      await address.click();

      // what a reader sees: the page, with its blocks drawn and the picture shown
      await ann.getByRole('heading', { name: 'Welcome', level: 1 }).waitFor();
      const article = ann.locator('main');
      await article.getByText('Welcome to the handbook. Ann wrote it in the browser.').waitFor();
      await article.getByText('Pick yours.').waitFor();
      expect(await article.getByText('Welcome to the handbook, readers.').count()).toBe(0);
      // the page's title is its h1: the document's headings come one level below
      await article.getByRole('heading', { name: 'Before you start', level: 3 }).waitFor();
      expect(await article.locator('strong', { hasText: 'this' }).count()).toBe(1);
      const figure = article.locator('figure.image');
      expect(await figure.locator('figcaption').textContent()).toBe('How the pieces fit');
      const img = figure.locator('img');
      expect(await img.getAttribute('alt')).toBe('Architecture diagram');
      await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(320);
      expect(await article.locator('.hint').allTextContents()).toEqual([
        expect.stringContaining('Keep your token secret.'),
        expect.stringContaining('Back up first.'),
      ]);
      for (const text of [
        'Download the installer',
        'Open the app',
        'Read the guide',
        'Writers write, readers read.',
        'npm start',
        'quire --help',
        'Second step.',
        'Right column.',
      ])
        await article.getByText(text).first().waitFor();
      // as a reader does: the second tab, then the expandable opened
      await article.getByText('Second tab', { exact: true }).click();
      await article.getByText('On macOS, open the package.').waitFor();
      await article.locator('details.expandable summary').click();
      await article.getByText('Hidden details.').waitFor();
      // the conditional block: its condition does not hold for an anonymous reader
      expect(await article.getByText('Only for readers on the pro plan.').count()).toBe(0);
      await article.getByRole('link', { name: 'checklist.txt' }).waitFor();
      await article.locator('.content-ref').getByRole('link', { name: 'Install' }).waitFor();
      await article.locator('.math').waitFor();
      await article.locator('table td', { hasText: '42' }).waitFor();
      await look(ann, 'published-page');

      expect([...annSeen.violations, ...bobSeen.violations]).toEqual([]);
      expect([...annSeen.origins, ...bobSeen.origins].filter((o) => o !== base)).toEqual([]);
    }
  });
});
