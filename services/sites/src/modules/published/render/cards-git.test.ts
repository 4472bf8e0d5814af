import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { png } from '../../../../../content/src/modules/git/git-http-server.testing.ts';
import { useGitSyncSites } from '../../../git-sync.testing.ts';

// GitBook's cards block as its repository gives it, imported by Git Sync and shown by the published site: content
// and sites on one bus, Debian's git http-backend on loopback.

const ORG = 'org-cards';
const { newRepo, publishedFrom, visit } = useGitSyncSites('page-cards', ORG);

describe("GitBook's cards from Git on the published site", () => {
  it('shows each card with its covers for light and dark, the whole card one link to its target', async () => {
    const dir = await newRepo('cards');
    await mkdir(join(dir, '.gitbook/assets'), { recursive: true });
    await writeFile(join(dir, '.gitbook/assets/light card.png'), png(1600, 900));
    await writeFile(join(dir, '.gitbook/assets/dark@2x.png'), png(800, 450));
    await writeFile(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [Setup](setup.md)\n');
    // as GitBook's Git Sync writes a cards block (its documentation's example, with this repository's paths)
    await writeFile(
      join(dir, 'README.md'),
      '# Home\n\n<table data-view="cards"><thead><tr><th></th><th></th>' +
        '<th data-hidden data-card-target data-type="content-ref"></th>' +
        '<th data-hidden data-card-cover data-type="files"></th>' +
        '<th data-hidden data-card-cover-dark data-type="files"></th></tr></thead><tbody>' +
        '<tr><td><strong>Set up</strong></td><td>Install &#x26; run &#x3C;it></td>' +
        '<td><a href="setup.md">setup.md</a></td>' +
        '<td><a href=".gitbook/assets/light card.png">light card.png</a></td>' +
        '<td><a href=".gitbook/assets/dark@2x.png">dark@2x.png</a></td></tr>' +
        '<tr><td><strong>GitBook</strong></td><td>Where this came from</td>' +
        '<td><a href="https://www.gitbook.com/">https://www.gitbook.com/</a></td><td></td><td></td></tr>' +
        '</tbody></table>\n',
    );
    await writeFile(join(dir, 'setup.md'), '# Setup\n\nSteps.\n');
    const { info, site } = await publishedFrom(dir, 'cards');
    expect(info.operation).toMatchObject({ state: 'success' });
    const home = (await visit(site.basename, '')) as { status: number; body: string };
    expect(home.status).toBe(200);
    expect(home.body).not.toContain('<table');
    expect(home.body).not.toContain('data-view');
    const cards = /<ul class="cards cards-medium">(.*?)<\/ul>/.exec(home.body);
    expect(cards, 'the cards are shown').not.toBeNull();
    const items = cards![1]!.match(/<li>.*?<\/li>/g) ?? [];
    expect(items).toHaveLength(2);
    // the page's card: one link to the page, the light cover with the dark one for a dark scheme, escaped text
    const first = new RegExp(
      `^<li><a class="card" href="/sites/${site.basename}/setup"><picture>` +
        '<source srcset="([^"]+)" media="\\(prefers-color-scheme: dark\\)">' +
        '<img class="card-cover" src="([^"]+)" alt="" width="1600" height="900" loading="lazy" decoding="async">' +
        '</picture><div class="card-body"><div class="card-field"><strong>Set up</strong></div>' +
        '<div class="card-field">Install &amp; run &lt;it&gt;</div></div></a></li>$',
    ).exec(items[0]!);
    expect(first, items[0]).not.toBeNull();
    expect(first![1]).not.toBe(first![2]);
    for (const src of [first![1]!, first![2]!]) {
      expect(src).not.toContain('gitbook-file:');
      expect(src).not.toContain('.gitbook/assets');
    }
    // another origin's card: a link there with rel, no cover
    expect(items[1]).toBe(
      '<li><a class="card" href="https://www.gitbook.com/" rel="noopener nofollow"><div class="card-body">' +
        '<div class="card-field"><strong>GitBook</strong></div><div class="card-field">Where this came from</div>' +
        '</div></a></li>',
    );
  }, 120_000);
});
