import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { contentService, loadContentConfig } from '@quire/content';
import { InProcessBus } from '@quire/kit';
import {
  buildSpace,
  createTestDatabase,
  eventually,
  startTestService,
  testLogger,
  userActor,
  type TestDatabase,
  type TestService,
} from '@quire/kit/testing';
import {
  runGit,
  startGitServer,
  type GitServer,
} from '../../../../../content/src/modules/git/git-http-server.testing.ts';
import { loadSitesConfig } from '../../../env.ts';
import { sitesService } from '../../../service.ts';

// GitBook's cards block as its repository gives it, imported by Git Sync and shown by the published site: content
// and sites on one bus, Debian's git http-backend on loopback.

const ORG = 'org-cards';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const gateway: Actor = { kind: 'service', service: 'gateway' };
const auth = { user: 'git-user', password: 'hunter2-secret' };

let db: TestDatabase;
let bus: InProcessBus;
let content: TestService;
let sites: TestService;
let server: GitServer;
let work: string;

beforeAll(async () => {
  db = await createTestDatabase('page-cards');
  bus = new InProcessBus(testLogger());
  content = await startTestService(contentService, loadContentConfig, db, {
    bus,
    env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
  });
  sites = await startTestService(sitesService, loadSitesConfig, db, { bus });
  sites.svc.deps.peers.setEndpoint('content', content.url);
  content.svc.deps.peers.setEndpoint('sites', sites.url);
  server = await startGitServer(auth);
  work = await mkdtemp(join(tmpdir(), 'quire-page-cards-'));
});
afterAll(async () => {
  await sites?.close();
  await content?.close();
  await bus?.close();
  await db?.drop();
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

/** A PNG of width × height (signature, IHDR, one IDAT, IEND). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

describe("GitBook's cards from Git on the published site", () => {
  it('shows each card with its covers for light and dark, the whole card one link to its target', async () => {
    await server.createRepo('cards');
    const dir = join(work, 'cards');
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
    await runGit(['add', '-A'], { cwd: dir });
    await runGit(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-m', 'cards'], { cwd: dir });
    const url = server.urlOf('cards', auth);
    await runGit(['push', url, 'main'], { cwd: dir });

    const space = await buildSpace(content, { org: ORG, title: 'Handbook', as: admin });
    await content.call(ops.importGitRepository, { spaceId: space.id, url, ref: 'refs/heads/main' }, admin);
    const info = await eventually(
      async () => {
        const i = await content.call(ops.getSpaceGitInfo, { spaceId: space.id }, admin);
        return i.operation && i.operation.state !== 'running' ? i : undefined;
      },
      30_000,
      'the import',
    );
    expect(info.operation).toMatchObject({ state: 'success' });
    const site = await sites.call(ops.createSite, { organizationId: ORG, title: 'Docs', spaces: [space.id] }, admin);
    await sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
    const home = (await sites.call(
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
