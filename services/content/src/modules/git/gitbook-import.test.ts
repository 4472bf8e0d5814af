import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ops, type RevisionPage } from '@quire/contracts';
import { buildSpace, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import {
  commitAll,
  exportAndClone,
  gitOperationSettled,
  png,
  runGit,
  useGitServer,
} from './git-http-server.testing.ts';
import { gitSyncRepository } from './git-sync.repository.ts';

const ORG = 'org1';
const admin = userActor('admin-user', [{ organization: ORG, role: 'admin' }]);
const auth = { user: 'git-user', password: 'hunter2-secret' };

const t = useTestService(contentService, loadContentConfig, {
  label: 'gitbook-import',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});
const server = useGitServer(auth);

const GROUPS = 6;
const SECTIONS = 5;
const PAGES = 9;
const IMAGES = 30;

const settled = (spaceId: string) => gitOperationSettled(t, spaceId, admin);

const flat = (pages: RevisionPage[]): RevisionPage[] =>
  pages.flatMap((p) => [p, ...flat(('pages' in p ? p.pages : []) as RevisionPage[])]);
const kids = (p: RevisionPage | undefined) => (p && 'pages' in p ? (p.pages as RevisionPage[]) : []);

const imageName = (n: number) => `Screen Shot ${n}@2x.png`;

/**
 * A GitBook-synced repository as GitBook writes one: SUMMARY.md with groups (and their anchors), a folder per section
 * with its README.md and pages, pages that share most of their text (Git stores them as deltas of each other), and
 * screenshots in `.gitbook/assets` named with spaces and `@2x`, each shown by a section's page.
 */
async function gitbookRepo(dir: string): Promise<{ pages: string[] }> {
  await runGit(['init', '--initial-branch=main', dir]);
  await mkdir(join(dir, '.gitbook/assets'), { recursive: true });
  for (let n = 0; n < IMAGES; n++)
    await writeFile(join(dir, '.gitbook/assets', imageName(n)), png(200 + n, 100 + n, n));
  const shared = Array.from({ length: 60 }, (_, i) => `Step ${i}: every guide of this product repeats this line.`);
  const pages = ['README.md'];
  const summary = ['# Table of contents', '', '* [Welcome](README.md)'];
  await writeFile(join(dir, 'README.md'), '# Welcome\n\nThe product documentation.\n');
  let image = 0;
  for (let g = 1; g <= GROUPS; g++) {
    summary.push('', `## Group ${g} <a href="#group-${g}" id="group-${g}"></a>`, '');
    for (let s = 1; s <= SECTIONS; s++) {
      const folder = `group-${g}/section-${s}`;
      await mkdir(join(dir, folder), { recursive: true });
      const shot = imageName(image++ % IMAGES);
      await writeFile(
        join(dir, folder, 'README.md'),
        `# Section ${g}.${s}\n\nThe section's overview.\n\n![Screenshot of section ${g}.${s}](<../../.gitbook/assets/${shot}>)\n`,
      );
      pages.push(`${folder}/README.md`);
      summary.push(`* [Section ${g}.${s}](${folder}/README.md)`);
      for (let p = 1; p <= PAGES; p++) {
        const body = [...shared.slice(0, 30 + p), `Page ${g}.${s}.${p} says something of its own.`];
        await writeFile(join(dir, folder, `page-${p}.md`), `# Page ${g}.${s}.${p}\n\n${body.join('\n\n')}\n`);
        pages.push(`${folder}/page-${p}.md`);
        summary.push(`  * [Page ${g}.${s}.${p}](${folder}/page-${p}.md)`);
      }
    }
  }
  await writeFile(join(dir, 'SUMMARY.md'), `${summary.join('\n')}\n`);
  await commitAll(dir, 'GitBook sync');
  return { pages };
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('a GitBook repository of a few hundred pages moves in (git http-backend on loopback)', () => {
  it('imports every page, group and screenshot, and exports them back with no page missing', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Product docs' });
    await server.createRepo('product');
    const src = join(server.work, 'product');
    const { pages: sourcePages } = await gitbookRepo(src);
    await runGit(['push', server.urlOf('product', auth), 'main'], { cwd: src });
    // As a Git host keeps it: one pack, the pages deltas of each other.
    const bare = join(server.root, 'product.git');
    await runGit(['repack', '-adq'], { cwd: bare });
    const idx = (await readdir(join(bare, 'objects/pack'))).find((f) => f.endsWith('.idx'))!;
    const verified = await runGit(['verify-pack', '-v', join(bare, 'objects/pack', idx)]);
    expect(verified.match(/^[0-9a-f]{40} blob\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/gm)?.length).toBeGreaterThan(100);

    // The progress `getSpaceGitInfo` shows while it runs, as recorded.
    const recorded = vi.spyOn(gitSyncRepository, 'setProgress');
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url: server.urlOf('product', auth), ref: 'refs/heads/main' },
      admin,
    );
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success', direction: 'import' } });
    const progress = recorded.mock.calls.map(([, , p]) => p);
    recorded.mockRestore();
    const phases = progress.map((p) => p.phase).filter((phase, i, all) => phase !== all[i - 1]);
    expect(phases).toEqual(['fetching', 'reading', 'parsing', 'storing', 'writing']);
    // Reading and parsing count up to their totals: the markdown files, the pages with content.
    const reading = progress.filter((p) => p.phase === 'reading');
    expect(reading[0]).toEqual({ phase: 'reading', done: 0, total: 1 + GROUPS * SECTIONS * (1 + PAGES) + 1 });
    expect(reading.at(-1)!.done).toBeGreaterThan(0);
    const parsing = progress.filter((p) => p.phase === 'parsing');
    expect(parsing.every((p) => p.total === 1 + GROUPS * SECTIONS * (1 + PAGES))).toBe(true);
    expect(parsing.map((p) => p.done)).toEqual(parsing.map((_, i) => (i + 1) * 50));

    const rev = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    const all = flat(rev.pages);
    const documents = all.filter((p) => p.type === 'document');
    expect(documents).toHaveLength(1 + GROUPS * SECTIONS * (1 + PAGES));
    expect(all.filter((p) => p.type === 'group')).toHaveLength(GROUPS);
    // The tree: the welcome page, then each group (its anchor's slug), its sections, their pages, paths kept.
    expect(rev.pages.map((p) => [p.title, 'path' in p ? p.path : p.type])).toEqual([
      ['Welcome', 'readme'],
      ...Array.from({ length: GROUPS }, (_, g) => [`Group ${g + 1}`, `group-${g + 1}`]),
    ]);
    const group3 = rev.pages[3];
    expect(kids(group3).map((p) => p.title)).toEqual(Array.from({ length: SECTIONS }, (_, s) => `Section 3.${s + 1}`));
    const section = kids(group3)[1];
    expect(section).toMatchObject({ path: 'group-3/section-2' });
    expect(kids(section).map((p) => [p.title, 'path' in p ? p.path : null])).toEqual(
      Array.from({ length: PAGES }, (_, p) => [`Page 3.2.${p + 1}`, `group-3/section-2/page-${p + 1}`]),
    );

    // Every screenshot is a file of the space, an image with its dimensions, shown by its section's page (the
    // eighth, section 2.3's).
    expect(rev.files.map((f) => f.name).sort()).toEqual(Array.from({ length: IMAGES }, (_, n) => imageName(n)).sort());
    const shot7 = rev.files.find((f) => f.name === imageName(7))!;
    expect(shot7).toMatchObject({ contentType: 'image/png', dimensions: { width: 207, height: 107 } });
    const sectionPage = await t.call(
      ops.getPageById,
      { spaceId: space.id, pageId: kids(rev.pages[2])[2]!.id, format: 'markdown' },
      admin,
    );
    expect((sectionPage as { markdown: string }).markdown).toContain(`gitbook-file:${shot7.id}`);
    // A page Git stored as a delta reads whole.
    const page = await t.call(
      ops.getPageById,
      { spaceId: space.id, pageId: kids(section)[8]!.id, format: 'markdown' },
      admin,
    );
    expect((page as { markdown: string }).markdown).toContain('Step 38: every guide');
    expect((page as { markdown: string }).markdown).toContain('Page 3.2.9 says something of its own.');

    // Export to a new repository: every page's file is there, every screenshot byte for byte.
    const to = {
      spaceId: space.id,
      actor: admin,
      repo: 'product-out',
      commitMessage: 'Out',
      clone: 'product-out-clone',
    };
    const { info, clone: out } = await exportAndClone(t, server, auth, to);
    expect(info).toMatchObject({ operation: { state: 'success', direction: 'export' } });
    const files = (await runGit(['ls-files'], { cwd: out })).trim().split('\n');
    const missing = sourcePages.filter((p) => !files.includes(p));
    expect(missing).toEqual([]);
    const summary = await readFile(join(out, 'SUMMARY.md'), 'utf8');
    for (const p of sourcePages) expect(summary).toContain(`(${p})`);
    for (let n = 0; n < IMAGES; n++) {
      const name = `.gitbook/assets/${imageName(n)}`;
      expect(sha(await readFile(join(out, name))), name).toBe(sha(await readFile(join(src, name))));
    }
    const exported = await readFile(join(out, 'group-3/section-2/page-9.md'), 'utf8');
    expect(exported).toContain('Page 3.2.9 says something of its own.');
  }, 600_000);
});
