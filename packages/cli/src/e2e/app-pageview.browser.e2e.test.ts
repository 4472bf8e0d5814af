import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitBookAPI } from '@gitbook/api';
import { png } from '@quire/kit/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  commitAll,
  runGit,
  useGitServer,
} from '../../../../services/content/src/modules/git/git-http-server.testing.ts';
import { axe, hasChromium, useChromium } from './browser.ts';
import { useMailedInstance } from './mailbox.ts';
import { publishDemoSite, writePages } from './published-sites.fixtures.ts';

// The app's Page screen renders a page with the published site's renderer (app/src/render/page.ts): the same
// article as the site's page, in the app's strict CSP.
const SHOTS = process.env.QUIRE_SCREENSHOTS ?? tmpdir();

/** A page with GitBook's blocks beyond the demo guide's (which has code, a hint, tabs, a table, a picture, tasks). */
const BLOCKS = [
  'A paragraph with **bold**, _italic_, ~~struck~~, `code`, <kbd>Ctrl</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <mark style="color:red;">red</mark> text, inline math $$E=mc^2$$, a [link](https://example.com), a page link to [Installation](getting-started/installation.md) and a note[^1].',
  '',
  '## Lists',
  '',
  '* one',
  '* two',
  '  * nested',
  '',
  '1. first',
  '2. second',
  '',
  '### Quote and divider',
  '',
  '> Quoted text',
  '',
  '***',
  '',
  '{% hint style="warning" %}',
  'Warning hint with **bold**.',
  '{% endhint %}',
  '',
  '{% code title="index.js" overflow="wrap" lineNumbers="true" %}',
  '```javascript',
  'const x = 1; // one',
  '```',
  '{% endcode %}',
  '',
  '```python',
  'print("plain fence")',
  '```',
  '',
  '<details>',
  '',
  '<summary>Expandable title</summary>',
  '',
  'Hidden content.',
  '',
  '</details>',
  '',
  '{% stepper %}',
  '{% step %}',
  '### Step one',
  '',
  'Do this.',
  '{% endstep %}',
  '',
  '{% step %}',
  '### Step two',
  '',
  'Then that.',
  '{% endstep %}',
  '{% endstepper %}',
  '',
  '{% columns %}',
  '{% column width="50%" %}',
  'Left column.',
  '{% endcolumn %}',
  '',
  '{% column width="50%" %}',
  'Right column.',
  '{% endcolumn %}',
  '{% endcolumns %}',
  '',
  '{% embed url="https://www.youtube.com/watch?v=abc" %}',
  '',
  '$$',
  'f(x) = \\frac{x^2}{2}',
  '$$',
  '',
  '<table data-full-width="true"><thead><tr><th width="160">Version</th><th align="right">Change</th></tr></thead><tbody><tr><td>2.0</td><td align="right"><strong>New</strong> engine</td></tr></tbody></table>',
  '',
  '{% if visitor.claims.unsigned.plan == "pro" %}',
  'Only for pro readers.',
  '{% endif %}',
  '',
  // content that tries to run script: shown as the site shows it, inert
  '<script>window.__xss=3</script>',
  '',
  '[click me](javascript:window.__xss=4) and <img src=x onerror="window.__xss=7">',
  '',
  '[^1]: The note itself.',
  '',
].join('\n');

/**
 * The article's document as normalized markup, read from the live DOM: elements with their attributes sorted, each
 * inline style as the browser parsed it (`style.cssText`), file links and pictures as `(file)` (the site's and the
 * API's signed links differ), links under the space's base (the site's or the app's) as `~/…`, white space collapsed.
 */
function articleOf(page: Page, base: string): Promise<string> {
  return page.evaluate((base) => {
    const root = document.querySelector('.document');
    if (!root) return '(no .document)';
    const out: string[] = [];
    const walk = (n: Node) => {
      if (n.nodeType === Node.TEXT_NODE) {
        out.push((n.textContent ?? '').replace(/\s+/g, ' '));
        return;
      }
      if (!(n instanceof Element)) return;
      const attrs = Array.from(n.attributes)
        .map((a) => {
          let v = a.value;
          if (a.name === 'style') v = (n as HTMLElement).style.cssText;
          else if (a.name === 'src' || (a.name === 'href' && /\/downloads?\//.test(v))) v = '(file)';
          else if (a.name === 'href' && (v === base || v.startsWith(`${base}/`))) v = `~${v.slice(base.length)}`;
          return `${a.name}="${v}"`;
        })
        .sort();
      out.push(`<${n.localName}${attrs.map((a) => ` ${a}`).join('')}>`);
      n.childNodes.forEach(walk);
      out.push(`</${n.localName}>\n`);
    };
    root.childNodes.forEach(walk);
    return out.join('');
  }, base);
}

/** The two screenshots side by side in one picture (a blank page showing both). */
async function sideBySide(browser: { newPage(): Promise<Page> }, left: Buffer, right: Buffer, file: string) {
  const img = (b: Buffer, label: string) =>
    `<figure style="margin:0;flex:1"><figcaption style="font:14px sans-serif;padding:4px">${label}</figcaption><img style="width:100%;border:1px solid #888" src="data:image/png;base64,${b.toString('base64')}"></figure>`;
  const shot = await browser.newPage();
  await shot.setViewportSize({ width: 1600, height: 900 });
  await shot.setContent(
    `<body style="margin:0;display:flex;gap:8px;background:#fff">${img(left, 'Published site')}${img(right, 'App: Page screen')}</body>`,
  );
  await shot.screenshot({ path: join(SHOTS, file), fullPage: true });
  await shot.close();
}

/**
 * axe in dark mode, less one finding of the published renderer left to it: GitHub's dark code theme writes comments
 * #6a737d on #24292e (contrast 3.04), on the published site as here. Only that rule, only inside a code block.
 */
async function axeDark(page: Page) {
  const found = await axe(page);
  const out = [];
  for (const v of found) {
    if (v.id !== 'color-contrast') {
      out.push(v);
      continue;
    }
    const inCode = await page.evaluate(
      (targets) => targets.every((t) => document.querySelector(t)?.closest('pre.shiki')),
      v.nodes.map((n) => n.target[0]!),
    );
    if (!inCode) out.push(v);
  }
  return out;
}

// the Git server on loopback the cover's space is imported from (a cover comes from GitBook's front matter)
const { p, acme, sessions } = useMailedInstance({ QUIRE_ALLOW_PRIVATE_FETCH: '1' });
const gitAuth = { user: 'ci', password: 'pa55-w0rd-pages' };
const git = useGitServer(gitAuth);

/**
 * A space imported by Git Sync from a GitBook repository: Overview, a group-like Guide page with Usage under it
 * (a cover, placed by `coverY`, and headings), then FAQ. The space's id, once the import ended.
 */
async function coveredSpace(api: GitBookAPI, org: string): Promise<string> {
  const space = (await api.orgs.createSpace(org, { title: 'Handbook' })).data.id;
  await git.createRepo('handbook');
  const src = join(git.work, 'handbook');
  await runGit(['init', '--initial-branch=main', src]);
  await mkdir(join(src, 'guide'), { recursive: true });
  await mkdir(join(src, '.gitbook/assets'), { recursive: true });
  // a wide picture: a dark blue sky over a green field, so its placement shows in the screenshots
  await writeFile(
    join(src, '.gitbook/assets/field.png'),
    png(1200, 600, (x, y) => (y < 330 ? [30, 60 + Math.round(x / 12), 140] : [60, 150, 70])),
  );
  await writeFile(
    join(src, 'SUMMARY.md'),
    '# Table of contents\n\n* [Overview](README.md)\n* [Guide](guide/README.md)\n  * [Usage](guide/usage.md)\n* [FAQ](faq.md)\n',
  );
  await writeFile(join(src, 'README.md'), '# Overview\n\nWhat the handbook holds.\n');
  await writeFile(join(src, 'guide/README.md'), '# Guide\n\nThe guide.\n');
  await writeFile(
    join(src, 'guide/usage.md'),
    [
      '---',
      'cover: ../.gitbook/assets/field.png',
      'coverY: 40',
      'description: How to start <and> stop.',
      '---',
      '',
      '# Usage',
      '',
      'Use it daily.',
      '',
      '## Start the engine',
      '',
      'Turn the key.',
      '',
      '### Cold mornings',
      '',
      'Wait a minute.',
      '',
      '## Stop',
      '',
      ...Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the long part.\n`),
      '## Afterwards',
      '',
      'Rest.',
      '',
    ].join('\n'),
  );
  await writeFile(join(src, 'faq.md'), '# FAQ\n\nQuestions.\n');
  await commitAll(src, 'docs');
  await runGit(['push', git.urlOf('handbook', gitAuth), 'main'], { cwd: src });
  await api.spaces.importGitRepository(space, { url: git.urlOf('handbook', gitAuth), ref: 'refs/heads/main' });
  for (let i = 0; i < 300; i++) {
    const info = (await api.spaces.getSpaceGitInfo(space)).data;
    if (info.operation && info.operation.state !== 'running') {
      expect(info.operation.state).toBe('success');
      return space;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the Git import did not end');
}

/** What the chrome around the page shows, read the same way on the site and in the app. */
function chromeOf(page: Page) {
  return page.evaluate(() => {
    const text = (sel: string) => document.querySelector(sel)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
    const img = document.querySelector<HTMLImageElement>('.page-cover img');
    return {
      breadcrumbs: Array.from(document.querySelectorAll('.breadcrumbs li'), (li) => li.textContent),
      outline: Array.from(document.querySelectorAll<HTMLAnchorElement>('.toc a'), (a) => [
        a.textContent,
        a.getAttribute('href'),
      ]),
      prevNext: Array.from(document.querySelectorAll('.prev-next a'), (a) => [a.className, a.textContent]),
      updated: text('.updated'),
      cover: img && {
        alt: img.alt,
        position: getComputedStyle(img).objectPosition,
        height: img.parentElement!.getBoundingClientRect().height,
        loaded: img.complete && img.naturalWidth > 0,
      },
    };
  });
}

describe.skipIf(!hasChromium)("the app's Page screen, rendered as the published site renders it", () => {
  const browser = useChromium();

  it('shows the same article as the published site, under the app CSP, at 375 px, light and dark', {
    timeout: 240_000,
  }, async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const { site, guide } = await publishDemoSite(api, org);
    await writePages(api, guide.id, [{ ref: 'blocks', title: 'Every block', markdown: BLOCKS }]);
    const home = site.urls.published!.replace('http://quire.test', p.url);
    const siteBase = new URL(home).pathname.replace(/\/$/, '');
    const appBase = `/o/${org}/s/${guide.id}`;

    const { page: app, violations } = await sessions.open(browser, 'ann@acme.io');
    const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const pages = [
      { title: 'Introduction', path: 'introduction' },
      { title: 'Every block', path: 'every-block' },
    ];
    for (const { title, path } of pages) {
      await reader.goto(`${home}/${path}`);
      await reader.getByRole('heading', { name: title, level: 1 }).waitFor();
      await app.goto(`${p.url}${appBase}/${path}`);
      await app.getByRole('heading', { name: title, level: 1 }).waitFor();
      await app.locator('.site-article .document > *').first().waitFor();
      const published = await articleOf(reader, siteBase);
      const shown = await articleOf(app, appBase);
      expect(published.length).toBeGreaterThan(500);
      expect(shown, title).toBe(published);
      // the page's title and description as the site shows them
      expect(await app.locator('.site-article .page-header').textContent()).toBe(
        await reader.locator('article.page .page-header').textContent(),
      );
      expect(await axe(app)).toEqual([]);
      await sideBySide(
        browser,
        await reader.locator('article.page').screenshot(),
        await app.locator('article.page').screenshot(),
        `quire-app-pageview-${path}.png`,
      );
      await app.emulateMedia({ colorScheme: 'dark' });
      expect(await axeDark(app)).toEqual([]);
      await app.emulateMedia({ colorScheme: 'light' });
    }

    // What a reader sees, block by block, on the "Every block" page of the app.
    const article = app.locator('.site-article');
    await article.getByRole('note').filter({ hasText: 'Warning hint with bold.' }).waitFor();
    expect(await article.locator('pre.shiki span[style]').count()).toBeGreaterThan(2);
    // code colours (inline styles) applied under the CSP: the keyword `const` is coloured, not the text colour
    const colour = (scheme: 'light' | 'dark') =>
      app.emulateMedia({ colorScheme: scheme }).then(() =>
        article
          .locator('pre.shiki span', { hasText: 'const' })
          .first()
          .evaluate((s) => getComputedStyle(s).color),
      );
    const [light, dark] = [await colour('light'), await colour('dark')];
    expect(light).not.toBe(dark);
    await app.emulateMedia({ colorScheme: 'light' });
    // KaTeX's stylesheet and fonts are the app's own: the formula is laid out (its MathML hidden for the eye)
    expect(await article.locator('.katex-display .katex-html').count()).toBe(1);
    expect(
      await article
        .locator('.katex-mathml')
        .first()
        .evaluate((m) => getComputedStyle(m).position),
    ).toBe('absolute');
    await expect.poll(() => app.evaluate(() => document.fonts.check('16px KaTeX_Main'))).toBe(true);
    await article.getByText('Hidden content.').waitFor({ state: 'hidden' });
    await article.getByText('Expandable title').click();
    await article.getByText('Hidden content.').waitFor();
    expect(await article.getByText('Only for pro readers.').count()).toBe(0);
    expect(await app.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    // a link to a page of the space opens it in the app
    await article.getByRole('link', { name: 'Installation' }).first().click();
    await app.waitForURL(`${p.url}${appBase}/getting-started/installation`);
    await app.getByRole('heading', { name: 'Installation', level: 1 }).waitFor();
    expect(violations).toEqual([]);

    // Side by side, 1280 px then 375 px (light and dark); nothing wider than a phone's screen.
    for (const [width, scheme] of [
      [1280, 'light'],
      [375, 'light'],
      [375, 'dark'],
    ] as const) {
      for (const pg of [app, reader]) {
        await pg.setViewportSize({ width, height: 900 });
        await pg.emulateMedia({ colorScheme: scheme });
      }
      await reader.goto(`${home}/every-block`);
      await app.goto(`${p.url}${appBase}/every-block`);
      await app.locator('.site-article .document > *').first().waitFor();
      await app.evaluate(() => document.fonts.ready);
      if (width === 375) {
        expect(await app.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        expect(await (scheme === 'dark' ? axeDark(app) : axe(app))).toEqual([]);
      }
      const site = await reader.locator('article.page').screenshot();
      const shown = await app.locator('article.page').screenshot();
      await sideBySide(browser, site, shown, `quire-app-pageview-${width}-${scheme}.png`);
    }
    expect(readFileSync(join(SHOTS, 'quire-app-pageview-375-dark.png')).length).toBeGreaterThan(1000);
    expect(violations).toEqual([]);
    await reader.close();
    await app.close();
  });

  it("draws the site's cover, breadcrumbs, outline, previous and next pages and Last updated around the page", {
    timeout: 240_000,
  }, async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const space = await coveredSpace(api, org);
    const site = (await api.orgs.createSite(org, { title: 'Handbook site' } as never)).data;
    await api.orgs.addSpaceToSite(org, site.id, { spaceId: space } as never);
    const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
    const home = published.urls.published.replace('http://quire.test', p.url);
    const appBase = `/o/${org}/s/${space}`;

    const { page: app, violations } = await sessions.open(browser, 'ann@acme.io');
    const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await reader.goto(`${home}/guide/usage`);
    await reader.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    await app.goto(`${p.url}${appBase}/guide/usage`);
    await app.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const article = app.locator('.site-article');
    await article.locator('.document > *').first().waitFor();

    // what the site shows around the page, the app shows the same
    const shown = await chromeOf(app);
    expect(shown).toEqual(await chromeOf(reader));
    expect(shown.breadcrumbs).toEqual(['Guide', 'Usage']);
    expect(shown.outline).toEqual([
      ['Start the engine', '#start-the-engine'],
      ['Cold mornings', '#cold-mornings'],
      ['Stop', '#stop'],
      ['Afterwards', '#afterwards'],
    ]);
    expect(shown.prevNext).toEqual([
      ['prev', 'PreviousGuide'],
      ['next', 'NextFAQ'],
    ]);
    expect(shown.updated).toMatch(/^Last updated \d{4}-\d\d-\d\d$/);
    // the cover above the title, as tall as GitBook's default, placed by coverY, decoration for screen readers
    expect(shown.cover).toMatchObject({ alt: '', height: 240, loaded: true });
    expect(shown.cover?.position).not.toBe('50% 50%');
    const above = await app.evaluate(
      () =>
        document.querySelector('.page-cover')!.getBoundingClientRect().bottom <=
        document.querySelector('.site-article h1')!.getBoundingClientRect().top,
    );
    expect(above).toBe(true);
    // the outline beside the page at 1280 px, its links to the page's headings
    const outline = article.getByRole('navigation', { name: 'On this page' });
    expect(await outline.isVisible()).toBe(true);
    const [page, aside] = await Promise.all([
      article.locator('.page-main').boundingBox(),
      article.locator('.outline').boundingBox(),
    ]);
    expect(aside!.x).toBeGreaterThan(page!.x + page!.width);
    expect(await axe(app)).toEqual([]);
    await app.screenshot({ path: join(SHOTS, 'quire-app-pagechrome-1280-light.png'), fullPage: true });
    await reader.screenshot({ path: join(SHOTS, 'quire-app-pagechrome-site-1280.png'), fullPage: true });
    await app.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(app)).toEqual([]);
    await app.screenshot({ path: join(SHOTS, 'quire-app-pagechrome-1280-dark.png'), fullPage: true });
    await app.emulateMedia({ colorScheme: 'light' });

    // by keyboard: an outline link brings its heading into sight, in the app's URL
    await outline.getByRole('link', { name: 'Stop' }).focus();
    await app.keyboard.press('Enter');
    await app.waitForURL(`${p.url}${appBase}/guide/usage#stop`);
    await expect
      .poll(() =>
        article.getByRole('heading', { name: 'Stop' }).evaluate((h) => Math.abs(h.getBoundingClientRect().top)),
      )
      .toBeLessThan(40);
    // next, previous and a crumb open their pages in the app
    await article.getByRole('link', { name: /^Next\s*FAQ$/ }).click();
    await app.waitForURL(`${p.url}${appBase}/faq`);
    await app.getByRole('heading', { name: 'FAQ', level: 1 }).waitFor();
    expect(await article.locator('.breadcrumbs').count()).toBe(0);
    expect(await article.locator('.prev-next .next').count()).toBe(0);
    await article.getByRole('link', { name: /^Previous\s*Usage$/ }).click();
    await app.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    await article.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Guide' }).click();
    await app.waitForURL(`${p.url}${appBase}/guide`);
    await app.getByRole('heading', { name: 'Guide', level: 1 }).waitFor();
    expect(await article.locator('.page-cover').count()).toBe(0);

    // at 375 px the outline folds away, as on the site; nothing wider than the screen; light and dark
    await app.setViewportSize({ width: 375, height: 800 });
    await app.goto(`${p.url}${appBase}/guide/usage`);
    await article.locator('.document > *').first().waitFor();
    await article.locator('.page-cover img').waitFor();
    expect(await article.locator('.outline').isVisible()).toBe(false);
    expect(await article.getByRole('navigation', { name: 'Breadcrumb' }).isVisible()).toBe(true);
    expect(await app.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      expect(await axe(app)).toEqual([]);
      await app.screenshot({ path: join(SHOTS, `quire-app-pagechrome-375-${scheme}.png`), fullPage: true });
    }
    expect(violations).toEqual([]);
    await reader.close();
    await app.close();
  });
});
