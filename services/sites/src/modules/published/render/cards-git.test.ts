import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { buildSpace, eventually, userActor } from '@quire/kit/testing';
import {
  commitAll,
  png,
  runGit,
  useGitServer,
} from '../../../../../content/src/modules/git/git-http-server.testing.ts';
import { useSitesAndContent } from '../../../test-support.ts';

// GitBook's cards block as its repository gives it, imported by Git Sync and shown by the published site: content
// and sites on one bus, Debian's git http-backend on loopback.

const ORG = 'org-cards';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const gateway: Actor = { kind: 'service', service: 'gateway' };
const auth = { user: 'git-user', password: 'hunter2-secret' };

// content (which runs the imports, so it may reach the loopback Git server) and sites on one bus.
const p = useSitesAndContent('page-cards', { inProcessBus: true, contentEnv: { QUIRE_ALLOW_PRIVATE_FETCH: '1' } });
const server = useGitServer(auth);

describe("GitBook's cards from Git on the published site", () => {
  it('shows each card with its covers for light and dark, the whole card one link to its target', async () => {
    await server.createRepo('cards');
    const dir = join(server.work, 'cards');
    await runGit(['init', '--initial-branch=main', dir]);
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
    await commitAll(dir, 'cards');
    const url = server.urlOf('cards', auth);
    await runGit(['push', url, 'main'], { cwd: dir });

    const space = await buildSpace(p.content, { org: ORG, title: 'Handbook', as: admin });
    await p.content.call(ops.importGitRepository, { spaceId: space.id, url, ref: 'refs/heads/main' }, admin);
    const info = await eventually(
      async () => {
        const i = await p.content.call(ops.getSpaceGitInfo, { spaceId: space.id }, admin);
        return i.operation && i.operation.state !== 'running' ? i : undefined;
      },
      30_000,
      'the import',
    );
    expect(info.operation).toMatchObject({ state: 'success' });
    const site = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Docs', spaces: [space.id] }, admin);
    await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
    const home = (await p.sites.call(
      ops.getPublishedSitePage,
      { host: 'quire.test', path: `/sites/${site.basename}`, query: {}, cookies: {} },
      gateway,
    )) as { status: number; body: string };
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
