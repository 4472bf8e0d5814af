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

// A page's cover as GitBook's repository gives it (front matter `cover`, `coverY`), imported by Git Sync and shown
// by the published site: content and sites on one bus, Debian's git http-backend on loopback.

const ORG = 'org-cover';
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
  db = await createTestDatabase('page-cover');
  bus = new InProcessBus(testLogger());
  content = await startTestService(contentService, loadContentConfig, db, {
    bus,
    env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
  });
  sites = await startTestService(sitesService, loadSitesConfig, db, { bus });
  sites.svc.deps.peers.setEndpoint('content', content.url);
  content.svc.deps.peers.setEndpoint('sites', sites.url);
  server = await startGitServer(auth);
  work = await mkdtemp(join(tmpdir(), 'quire-page-cover-'));
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

describe("a page's cover from Git on the published site", () => {
  it('shows the cover above the title (alt empty, placed by coverY), none without one; ask opens search', async () => {
    await server.createRepo('covers');
    const dir = join(work, 'covers');
    await runGit(['init', '--initial-branch=main', dir]);
    await mkdir(join(dir, '.gitbook/assets'), { recursive: true });
    await writeFile(join(dir, '.gitbook/assets/cover "x" <1>.png'), png(1600, 900));
    await writeFile(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [Plain](plain.md)\n');
    await writeFile(
      join(dir, 'README.md'),
      '---\ncover: \'.gitbook/assets/cover "x" <1>.png\'\ncoverY: 94.57\n---\n\n# Home\n\nWelcome.\n\n' +
        '<p align="center"><button type="button" class="button primary" data-action="ask" data-query="Set up &#x26; run?">Ask</button></p>\n',
    );
    await writeFile(join(dir, 'plain.md'), '# Plain\n\nNo cover.\n');
    await runGit(['add', '-A'], { cwd: dir });
    await runGit(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-m', 'covers'], { cwd: dir });
    const url = server.urlOf('covers', auth);
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
    const visit = (path: string) =>
      sites.call(
        ops.getPublishedSitePage,
        { host: 'quire.test', path: `/sites/${site.basename}${path}`, query: {}, cookies: {} },
        gateway,
      );

    const home = (await visit('')) as { status: number; body: string };
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
    const plain = (await visit('/plain')) as { status: number; body: string };
    expect(plain.status).toBe(200);
    expect(plain.body).not.toContain('page-cover');
  }, 120_000);
});
