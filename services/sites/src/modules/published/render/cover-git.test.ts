import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { png } from '../../../../../content/src/modules/git/git-http-server.testing.ts';
import { useGitSyncSites } from '../../../git-sync.testing.ts';

// A page's cover as GitBook's repository gives it (front matter `cover`, `coverY`), imported by Git Sync and shown
// by the published site: content and sites on one bus, Debian's git http-backend on loopback.

const ORG = 'org-cover';
const { newRepo, publishedFrom, visit } = useGitSyncSites('page-cover', ORG);

describe("a page's cover from Git on the published site", () => {
  it('shows the cover above the title (alt empty, placed by coverY), none without one; ask opens search', async () => {
    const dir = await newRepo('covers');
    await mkdir(join(dir, '.gitbook/assets'), { recursive: true });
    await writeFile(join(dir, '.gitbook/assets/cover "x" <1>.png'), png(1600, 900));
    await writeFile(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [Plain](plain.md)\n');
    await writeFile(
      join(dir, 'README.md'),
      '---\ncover: \'.gitbook/assets/cover "x" <1>.png\'\ncoverY: 94.57\n---\n\n# Home\n\nWelcome.\n\n' +
        '<p align="center"><button type="button" class="button primary" data-action="ask" data-query="Set up &#x26; run?">Ask</button></p>\n',
    );
    await writeFile(join(dir, 'plain.md'), '# Plain\n\nNo cover.\n');
    const { info, site } = await publishedFrom(dir, 'covers');
    expect(info.operation).toMatchObject({ state: 'success' });

    const home = (await visit(site.basename, '')) as { status: number; body: string };
    expect(home.status).toBe(200);
    const cover = /<div class="page-cover" style="height:240px"><img src="([^"]+)" alt="" ([^>]*)><\/div>/.exec(
      home.body,
    );
    expect(cover, 'the cover is shown').not.toBeNull();
    expect(cover![2]).toBe(
      'width="1600" height="900" style="object-position:50% 25%" decoding="async" fetchpriority="high"',
    );
    // above the title, inside the page's article
    expect(home.body.indexOf('class="page-cover"')).toBeLessThan(home.body.indexOf('<h1>'));
    expect(home.body.indexOf('<article class="page">')).toBeLessThan(home.body.indexOf('class="page-cover"'));
    // the file's download link, its name never in the markup
    expect(cover![1]).not.toContain('gitbook-file:');
    expect(home.body).not.toContain('cover "x"');
    // GitBook's ask button opens the site's search page with its query (no script needed)
    expect(home.body).toContain(
      `<a class="button" href="/sites/${site.basename}/~search?q=Set%20up%20%26%20run%3F">Ask</a>`,
    );
    const plain = (await visit(site.basename, '/plain')) as { status: number; body: string };
    expect(plain.status).toBe(200);
    expect(plain.body).not.toContain('page-cover');
  }, 120_000);
});
