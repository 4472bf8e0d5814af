import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { buildSpace, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { commitAll, gitOperationSettled, runGit, useGitServer } from '../git/git-http-server.testing.ts';

// GitBook's `RevisionFile.git` {oid, path}: a file's blob and path in the repository Git Sync read or wrote, as its
// pages and reusable contents have theirs.

const ORG = 'org-files-git';
const ADMIN_ID = 'admin-files-git';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);
const auth = { user: 'git-user', password: 'hunter2-secret' };

const t = useTestService(contentService, loadContentConfig, {
  label: 'files-git',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});
const server = useGitServer(auth);

const settled = (spaceId: string) => gitOperationSettled(t, spaceId, admin);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe("files' git in Git Sync (git http-backend on loopback)", () => {
  it('gives each file of the revision Git wrote its blob and path; none once the space moved on', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Handbook' });
    await server.createRepo('files');
    const src = join(server.work, 'files');
    await runGit(['init', '--initial-branch=main', src]);
    await mkdir(join(src, 'docs/guides'), { recursive: true });
    await mkdir(join(src, 'docs/.gitbook/assets'), { recursive: true });
    await writeFile(join(src, 'docs/.gitbook/assets/setup guide@2x.pdf'), PDF);
    await writeFile(join(src, 'docs/guides/sheet.pdf'), Buffer.concat([PDF, Buffer.from('% two\n')]));
    await writeFile(
      join(src, 'docs/SUMMARY.md'),
      '# Table of contents\n\n* [Home](README.md)\n* [Install](guides/install.md)\n',
    );
    await writeFile(join(src, 'docs/README.md'), '# Home\n\n[The guide](<.gitbook/assets/setup guide@2x.pdf>)\n');
    await writeFile(join(src, 'docs/guides/install.md'), '# Install\n\n{% file src="sheet.pdf" %}\n');
    await commitAll(src, 'GitBook sync');
    await runGit(['push', server.urlOf('files', auth), 'main'], { cwd: src });
    const remote = { spaceId: space.id, url: server.urlOf('files', auth), ref: 'refs/heads/main' };
    const blobAt = async (path: string) => (await runGit(['rev-parse', `HEAD:${path}`], { cwd: src })).trim();
    const expected = {
      'setup guide@2x.pdf': {
        oid: await blobAt('docs/.gitbook/assets/setup guide@2x.pdf'),
        path: 'docs/.gitbook/assets/setup guide@2x.pdf',
      },
      'sheet.pdf': { oid: await blobAt('docs/guides/sheet.pdf'), path: 'docs/guides/sheet.pdf' },
    };

    await t.call(ops.importGitRepository, { ...remote, repoProjectDirectory: 'docs' }, admin);
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success', direction: 'import' } });
    const rev = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    const byName = (files: { name: string; git?: unknown }[]) => Object.fromEntries(files.map((f) => [f.name, f.git]));
    expect(byName(rev.files)).toEqual(expected);
    // the same through the files' reads: the list, one file, a revision by id
    const listed = await t.call(ops.listFiles, { spaceId: space.id }, admin);
    expect(byName(listed.items)).toEqual(expected);
    const sheet = rev.files.find((f) => f.name === 'sheet.pdf')!;
    expect((await t.call(ops.getFileById, { spaceId: space.id, fileId: sheet.id }, admin)).git).toEqual(
      expected['sheet.pdf'],
    );
    expect(
      (await t.call(ops.getFileInRevisionById, { spaceId: space.id, revisionId: rev.id, fileId: sheet.id }, admin)).git,
    ).toEqual(expected['sheet.pdf']);

    // Edited in Quire: the live revision is not the repository's content any more, its files have no `git`; the
    // revision the import wrote keeps it.
    const home = rev.pages[0]!;
    const cr = await editContent(
      t,
      space.id,
      undefined,
      [{ operation: 'update_page', page: home.id, document: { markdown: '# Home\n\nChanged.\n' } }],
      ADMIN_ID,
    );
    await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin);
    const live = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    expect(live.id).not.toBe(rev.id);
    expect(live.files.map((f) => f.git)).toEqual([undefined, undefined]);
    expect((await t.call(ops.getFileById, { spaceId: space.id, fileId: sheet.id }, admin)).git).toBeUndefined();
    expect(
      (await t.call(ops.getFileInRevisionById, { spaceId: space.id, revisionId: rev.id, fileId: sheet.id }, admin)).git,
    ).toEqual(expected['sheet.pdf']);

    // Exported: the live revision is the repository's content again, its files where the export wrote them.
    await t.call(
      ops.exportToGitRepository,
      { ...remote, repoProjectDirectory: 'docs', commitMessage: 'From Quire' },
      admin,
    );
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success', direction: 'export' } });
    const out = join(server.work, 'files-clone');
    await runGit(['clone', '-q', server.urlOf('files', auth), out]);
    const exported = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    for (const f of exported.files) {
      expect(f.git, f.name).toBeDefined();
      expect(f.git!.oid).toBe((await runGit(['rev-parse', `HEAD:${f.git!.path}`], { cwd: out })).trim());
    }
    expect(byName(exported.files)).toEqual(expected);
  }, 120_000);
});
