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

// A page's cover as GitBook's repository gives it (front matter `cover`, `coverY`), imported by Git Sync and shown
// by the published site: content and sites on one bus, Debian's git http-backend on loopback.

const ORG = 'org-cover';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const gateway: Actor = { kind: 'service', service: 'gateway' };
const auth = { user: 'git-user', password: 'hunter2-secret' };

// content (which runs the imports, so it may reach the loopback Git server) and sites on one bus.
const p = useSitesAndContent('page-cover', { inProcessBus: true, contentEnv: { QUIRE_ALLOW_PRIVATE_FETCH: '1' } });
const server = useGitServer(auth);

describe("a page's cover from Git on the published site", () => {
  it('shows the cover above the title (alt empty, placed by coverY), none without one; ask opens search', async () => {
    await server.createRepo('covers');
    const dir = join(server.work, 'covers');
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
    await commitAll(dir, 'covers');
    const url = server.urlOf('covers', auth);
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
    const visit = (path: string) =>
      p.sites.call(
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
