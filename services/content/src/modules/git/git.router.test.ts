import { readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ops, type RevisionPage } from '@quire/contracts';
import { sql } from '@quire/kit';
import { buildSpace, failureOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { commitAll, exportAndClone, gitOperationSettled, runGit, useGitServer } from './git-http-server.testing.ts';

const ORG = 'org1';
const admin = userActor('admin-user', [{ organization: ORG, role: 'admin' }]);
const editor = userActor('editor', [{ organization: ORG, role: 'edit' }]);
const reader = userActor('reader', [{ organization: ORG, role: 'read' }]);
const auth = { user: 'git-user', password: 'hunter2-secret' };

const t = useTestService(contentService, loadContentConfig, { label: 'git', env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' } });
const server = useGitServer(auth);

/** Waits for the space's latest Git operation to end (the service's job runs it). */
const settled = (spaceId: string) => gitOperationSettled(t, spaceId, admin, 300);

const outline = (pages: RevisionPage[]): unknown[] =>
  pages.map((p) => [p.title, 'path' in p ? p.path : p.type, outline(('pages' in p ? p.pages : []) as RevisionPage[])]);
const flat = (pages: RevisionPage[]): RevisionPage[] =>
  pages.flatMap((p) => [p, ...flat(('pages' in p ? p.pages : []) as RevisionPage[])]);

async function fixtureRepo(name: string): Promise<string> {
  await server.createRepo(name);
  const dir = join(server.work, name);
  await runGit(['init', '--initial-branch=main', dir]);
  await mkdir(join(dir, 'guides/setup'), { recursive: true });
  await mkdir(join(dir, '.gitbook/assets'), { recursive: true });
  await writeFile(
    join(dir, 'SUMMARY.md'),
    '# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Setup](guides/setup/README.md)\n  * [Install](guides/setup/install.md)\n* [FAQ](guides/faq.md)\n',
  );
  await writeFile(
    join(dir, 'README.md'),
    '---\ndescription: Start here\n---\n\n# Welcome\n\nRead [Install](guides/setup/install.md) first.\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n\n![Logo](.gitbook/assets/logo.png)\n',
  );
  await writeFile(join(dir, 'guides/setup/README.md'), '# Setup\n\nSetting up.\n');
  await writeFile(
    join(dir, 'guides/setup/install.md'),
    '# Install\n\n```bash\nnpm install\n```\n\nBack to [the start](../../README.md).\n',
  );
  await writeFile(join(dir, 'guides/faq.md'), '# FAQ\n\n* one\n* two\n');
  await writeFile(
    join(dir, '.gitbook/assets/logo.png'),
    Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  );
  await commitAll(dir, 'docs');
  await runGit(['push', server.urlOf(name, auth), 'main'], { cwd: dir });
  return dir;
}

describe('Git Sync through the service (git http-backend on loopback)', () => {
  it('imports a SUMMARY.md repository, exports it, and takes back an edit and a rename with the same page ids', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Docs' });
    await expect(failureOf(t.call(ops.getSpaceGitInfo, { spaceId: space.id }, admin))).resolves.toMatchObject({
      reason: 'not_found',
    });
    await fixtureRepo('fixture');
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url: server.urlOf('fixture', auth), ref: 'refs/heads/main' },
      admin,
    );
    const info = await settled(space.id);
    expect(info).toMatchObject({
      installationStatus: 'active',
      repoName: 'fixture',
      operation: { state: 'success', direction: 'import' },
    });
    expect(JSON.stringify(info)).not.toContain(auth.password);

    const rev = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    expect(outline(rev.pages)).toEqual([
      ['Welcome', 'readme', []],
      [
        'Guides',
        'guides',
        [
          ['Setup', 'guides/setup', [['Install', 'guides/setup/install', []]]],
          ['FAQ', 'guides/faq', []],
        ],
      ],
    ]);
    const pages = flat(rev.pages);
    const byTitle = (title: string) => pages.find((p) => p.title === title)!;
    const welcome = await t.call(
      ops.getPageById,
      { spaceId: space.id, pageId: byTitle('Welcome').id, format: 'markdown' },
      admin,
    );
    expect(welcome).toMatchObject({ description: 'Start here' });
    const md = (welcome as { markdown: string }).markdown;
    expect(md).toContain(`/pages/${byTitle('Install').id}`);
    expect(md).toMatch(/gitbook-file:[\w-]+/);
    expect(md).toContain('{% hint style="info" %}');
    expect(rev.files.map((f) => f.name)).toEqual(['logo.png']);

    // The same commit again changes nothing.
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url: server.urlOf('fixture', auth), ref: 'refs/heads/main' },
      admin,
    );
    await settled(space.id);
    expect((await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).id).toBe(rev.id);

    // Export to a new repository; the git CLI clones it and reads the files.
    const to = {
      spaceId: space.id,
      actor: editor,
      repo: 'out',
      commitMessage: 'From Quire',
      clone: 'clone',
      tries: 300,
    };
    const exported = await exportAndClone(t, server, auth, to);
    const clone = exported.clone;
    expect(exported.info).toMatchObject({ operation: { state: 'success', direction: 'export' } });
    expect(await readFile(join(clone, 'SUMMARY.md'), 'utf8')).toContain('## Guides');
    // The group's slug (its title's, GitBook's anchor absent) is its pages' folder, as in the source.
    const install = await readFile(join(clone, 'guides/setup/install.md'), 'utf8');
    expect(install).toMatch(/^# Install\n/);
    expect(install).toContain('](../../README.md)');
    expect(await readFile(join(clone, '.gitbook/assets/logo.png'))).toHaveLength(29);
    expect(await runGit(['log', '--format=%s'], { cwd: clone })).toBe('From Quire\n');

    // Edit one page and rename another with git, push, import back: same ids.
    await writeFile(join(clone, 'guides/faq.md'), '# FAQ\n\n* one\n* two\n* three\n');
    await rename(join(clone, 'guides/setup/install.md'), join(clone, 'guides/setup/installing.md'));
    const summary = await readFile(join(clone, 'SUMMARY.md'), 'utf8');
    await writeFile(join(clone, 'SUMMARY.md'), summary.replace('setup/install.md', 'setup/installing.md'));
    await commitAll(clone, 'edit from git');
    await runGit(['push'], { cwd: clone });
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url: server.urlOf('out', auth), ref: 'refs/heads/main' },
      admin,
    );
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success', direction: 'import' } });
    const after = flat((await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).pages);
    expect(after.map((p) => p.id).sort()).toEqual(pages.map((p) => p.id).sort());
    expect(after.find((p) => p.id === byTitle('Install').id)).toMatchObject({ path: 'guides/setup/installing' });
    const faq = await t.call(
      ops.getPageById,
      { spaceId: space.id, pageId: byTitle('FAQ').id, format: 'markdown' },
      admin,
    );
    expect((faq as { markdown: string }).markdown).toContain('three');
  }, 90_000);

  it("gives pages GitBook's git {oid, path}, announces the redirects, and exports both consistently", async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Blobs' });
    const spaceId = space.id;
    await server.createRepo('blobs');
    const dir = join(server.work, 'blobs');
    await runGit(['init', '--initial-branch=main', dir]);
    await mkdir(join(dir, 'docs/guide'), { recursive: true });
    await writeFile(join(dir, '.gitbook.yaml'), 'root: docs\nredirects:\n  old-usage: guide/usage.md\n');
    await writeFile(
      join(dir, 'docs/SUMMARY.md'),
      '* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [Usage](guide/usage.md)\n',
    );
    await writeFile(join(dir, 'docs/README.md'), '# Intro\n\nHello.\n');
    await writeFile(join(dir, 'docs/guide/README.md'), '# Guide\n\nThe guide.\n');
    await writeFile(join(dir, 'docs/guide/usage.md'), '# Usage\n\nUse it.\n');
    await commitAll(dir, 'docs');
    const url = server.urlOf('blobs', auth);
    await runGit(['push', url, 'main'], { cwd: dir });
    await t.call(ops.importGitRepository, { spaceId, url, ref: 'refs/heads/main' }, admin);
    expect(await settled(spaceId)).toMatchObject({ operation: { state: 'success' } });

    const blobAt = async (cwd: string, path: string) => (await runGit(['rev-parse', `HEAD:${path}`], { cwd })).trim();
    const gitOf = (p: RevisionPage | undefined) => (p && 'git' in p ? p.git : undefined);
    const rev = await t.call(ops.getCurrentRevision, { spaceId }, admin);
    const pages = flat(rev.pages);
    const byTitle = (title: string) => pages.find((p) => p.title === title)!;
    for (const [title, path] of [
      ['Intro', 'docs/README.md'],
      ['Guide', 'docs/guide/README.md'],
      ['Usage', 'docs/guide/usage.md'],
    ] as const)
      expect(gitOf(byTitle(title)), title).toEqual({ oid: await blobAt(dir, path), path });
    // Every read of the pages gives it: the list, a page with its sub-pages, a page by path.
    const listed = flat((await t.call(ops.listPages, { spaceId }, admin)).pages);
    expect(listed.map(gitOf)).toEqual(pages.map(gitOf));
    expect(await t.call(ops.getPageById, { spaceId, pageId: byTitle('Guide').id }, admin)).toMatchObject({
      git: { path: 'docs/guide/README.md' },
      pages: [{ title: 'Usage', git: gitOf(byTitle('Usage')) }],
    });
    expect(await t.call(ops.getPageByPath, { spaceId, pagePath: 'guide/usage' }, admin)).toMatchObject({
      git: gitOf(byTitle('Usage')),
    });

    // The redirects, their targets resolved to pages, are announced for the sites; the same commit again, not.
    const announced = async () =>
      (await t.outboxEvents('space.git-redirects-updated')).filter(
        (e) => (e.data as { space: string }).space === spaceId,
      );
    expect((await announced()).map((e) => e.data)).toEqual([
      {
        space: spaceId,
        organization: ORG,
        commit: rev.git!.oid,
        redirects: [{ source: 'old-usage', page: byTitle('Usage').id }],
      },
    ]);
    await t.call(ops.importGitRepository, { spaceId, url, ref: 'refs/heads/main' }, admin);
    await settled(spaceId);
    expect(await announced()).toHaveLength(1);

    // An export writes the redirects back to `.gitbook.yaml`; the pages' blobs become the files it wrote.
    await server.createRepo('blobs-out');
    await t.call(
      ops.exportToGitRepository,
      { spaceId, url: server.urlOf('blobs-out', auth), ref: 'refs/heads/main', commitMessage: 'Out' },
      editor,
    );
    expect(await settled(spaceId)).toMatchObject({ operation: { state: 'success', direction: 'export' } });
    const out = join(server.work, 'blobs-out');
    await runGit(['clone', server.urlOf('blobs-out', auth), out]);
    expect(await readFile(join(out, '.gitbook.yaml'), 'utf8')).toBe('redirects:\n  old-usage: guide/usage.md\n');
    const after = flat((await t.call(ops.getCurrentRevision, { spaceId }, admin)).pages);
    for (const [title, path] of [
      ['Intro', 'README.md'],
      ['Guide', 'guide/README.md'],
      ['Usage', 'guide/usage.md'],
    ] as const)
      expect(gitOf(after.find((p) => p.title === title)), title).toEqual({ oid: await blobAt(out, path), path });
  });

  it("exports GitBook's heading levels and an OpenAPI block's spec URL back as they were imported", async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'API' });
    // the organization's spec, from its URL (processed already: the job leaves it alone)
    await sql(
      t.em(),
      `insert into :schema.openapi_spec (id, organization_id, slug, source_url, source_text, processing_state, generation, created_at, updated_at)
       values ('spec-petstore', ?, 'petstore', 'https://petstore.example/openapi.json', null, 'complete', 1, now(), now())`,
      [ORG],
    );
    const readme =
      '# API\n\n## Pets\n\n### Adding\n\n#### From the API\n\n' +
      '{% openapi-operation spec="petstore" path="/pet" method="post" %}\n' +
      '[OpenAPI petstore](https://petstore.example/openapi.json)\n{% endopenapi-operation %}\n';
    await server.createRepo('api');
    const dir = join(server.work, 'api');
    await runGit(['init', '--initial-branch=main', dir]);
    await writeFile(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [API](README.md)\n');
    await writeFile(join(dir, 'README.md'), readme);
    await commitAll(dir, 'api');
    const url = server.urlOf('api', auth);
    await runGit(['push', url, 'main'], { cwd: dir });
    await t.call(ops.importGitRepository, { spaceId: space.id, url, ref: 'refs/heads/main' }, admin);
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success' } });
    const [page] = (await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).pages;
    const document = await t.call(ops.getPageById, { spaceId: space.id, pageId: page!.id, format: 'document' }, admin);
    const types = JSON.stringify(document).match(/"type":"(heading-\d|openapi-operation)"/g);
    expect(types).toEqual([
      '"type":"heading-1"',
      '"type":"heading-2"',
      '"type":"heading-3"',
      '"type":"openapi-operation"',
    ]);

    const to = { spaceId: space.id, actor: admin, repo: 'api-out', commitMessage: 'From Quire', clone: 'api-clone' };
    const { info, clone } = await exportAndClone(t, server, auth, { ...to, tries: 300 });
    expect(info).toMatchObject({ operation: { state: 'success', direction: 'export' } });
    expect(await readFile(join(clone, 'README.md'), 'utf8')).toBe(readme);
  });

  it('standalone: a revision only, the live content and the Git Sync unchanged', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Standalone' });
    const before = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url: server.urlOf('fixture', auth), ref: 'refs/heads/main', standalone: true },
      admin,
    );
    const info = await settled(space.id);
    expect(info).toMatchObject({ installationStatus: 'pending', operation: { state: 'success', direction: 'import' } });
    expect((await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).id).toBe(before.id);
    const [row] = await sql<{ revision_id: string }>(
      t.em(),
      'select revision_id from :schema.git_operation where space_id = ?',
      [space.id],
    );
    const written = await t.call(ops.getRevisionById, { spaceId: space.id, revisionId: row!.revision_id }, admin);
    expect(written.pages.map((p) => p.title)).toEqual(['Welcome', 'Guides']);
  });

  it("uses repoCommitURL for the revision's git.url, and skips an operation older than one applied (timestamp)", async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Timestamps' });
    const url = server.urlOf('fixture', auth);
    const later = '2026-06-02T10:00:00.000Z';
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url, ref: 'refs/heads/main', timestamp: later, repoCommitURL: 'https://git.example.com/c/' },
      admin,
    );
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success' } });
    const rev = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    expect(rev.git).toMatchObject({
      oid: expect.stringMatching(/^[0-9a-f]{40}$/),
      message: 'docs\n',
      createdByGitBook: false,
    });
    expect(rev.git!.url).toBe(`https://git.example.com/c/${rev.git!.oid}`);
    // Forced (so not skipped as the same commit), but triggered before the import applied: stale, nothing written.
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url, ref: 'refs/heads/main', force: true, timestamp: '2026-06-01T10:00:00.000Z' },
      admin,
    );
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success' } });
    const [latest] = await sql<{ revision_id: string | null; commit_oid: string | null }>(
      t.em(),
      'select revision_id, commit_oid from :schema.git_operation where space_id = ? order by created_at desc limit 1',
      [space.id],
    );
    expect(latest).toEqual({ revision_id: null, commit_oid: null });
    expect((await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).id).toBe(rev.id);
  });

  it('refuses a reader, keeps credentials out of errors, and fails a root outside the repository', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Hostile' });
    await expect(
      failureOf(
        t.call(
          ops.exportToGitRepository,
          { spaceId: space.id, url: server.urlOf('x'), ref: 'refs/heads/main', commitMessage: 'm' },
          reader,
        ),
      ),
    ).resolves.toMatchObject({ reason: 'forbidden' });
    await expect(
      failureOf(
        t.call(ops.importGitRepository, { spaceId: space.id, url: 'ftp://h/x', ref: 'refs/heads/main' }, admin),
      ),
    ).resolves.toMatchObject({ reason: 'invalid_input' });

    await t.call(
      ops.importGitRepository,
      {
        spaceId: space.id,
        url: server.urlOf('missing', { user: auth.user, password: 'wrong-password-xyz' }),
        ref: 'refs/heads/main',
      },
      admin,
    );
    const failed = await settled(space.id);
    expect(failed.operation).toMatchObject({
      state: 'failure',
      error: expect.stringMatching(/refused the credentials/),
    });
    expect(JSON.stringify(failed)).not.toContain('wrong-password-xyz');

    await server.createRepo('rooted');
    const dir = join(server.work, 'rooted');
    await runGit(['init', '--initial-branch=main', dir]);
    await writeFile(join(dir, '.gitbook.yaml'), 'root: ../../etc/\n');
    await writeFile(join(dir, 'README.md'), '# R\n');
    await commitAll(dir, 'bad root');
    await runGit(['push', server.urlOf('rooted', auth), 'main'], { cwd: dir });
    await t.call(
      ops.importGitRepository,
      { spaceId: space.id, url: server.urlOf('rooted', auth), ref: 'refs/heads/main' },
      admin,
    );
    expect((await settled(space.id)).operation).toMatchObject({
      state: 'failure',
      error: expect.stringMatching(/root: outside the repository/),
    });
  });
});
