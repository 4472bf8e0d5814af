import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { buildSpace, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { commitAll, gitOperationSettled, runGit, useGitServer } from './git-http-server.testing.ts';

// Reusable contents through Git Sync as GitBook stores them (issue 42): `.gitbook/includes/<slug>.md` (front matter
// `title`), included by `{% include "<path relative to the page>" %}`.

const ORG = 'org-includes';
const ADMIN_ID = 'admin-includes';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);
const auth = { user: 'git-user', password: 'hunter2-secret' };

const t = useTestService(contentService, loadContentConfig, {
  label: 'git-includes',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});
const server = useGitServer(auth);

const settled = (spaceId: string) => gitOperationSettled(t, spaceId, admin);

const SOURCE: Record<string, string> = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](guides/install.md)\n',
  'README.md': '# Welcome\n\nStart here.\n\n{% include ".gitbook/includes/support-hint.md" %}\n',
  'guides/install.md':
    '# Install\n\nRun the installer.\n\n{% include "../.gitbook/includes/support-hint.md" %}\n\n## Next\n\nDone.\n',
  '.gitbook/includes/support-hint.md':
    '---\ntitle: Support hint\n---\n\n{% hint style="info" %}\nStuck? Read the [install guide](../../guides/install.md).\n{% endhint %}\n',
};

async function write(dir: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

describe('reusable contents in Git Sync (git http-backend on loopback)', () => {
  it('imports .gitbook/includes/ as reusable contents, exports them back, and updates them by path', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Handbook' });
    await server.createRepo('handbook');
    const src = join(server.work, 'handbook');
    await runGit(['init', '--initial-branch=main', src]);
    await write(src, SOURCE);
    await commitAll(src, 'GitBook sync');
    await runGit(['push', server.urlOf('handbook', auth), 'main'], { cwd: src });
    const remote = { spaceId: space.id, url: server.urlOf('handbook', auth), ref: 'refs/heads/main' };

    await t.call(ops.importGitRepository, remote, admin);
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success', direction: 'import' } });
    const rev = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    expect(rev.reusableContents.map((r) => r.title)).toEqual(['Support hint']);
    const hint = rev.reusableContents[0]!;
    // GitBook's `git` of a reusable content: its file's blob and path
    const blobAt = async (dir: string, path: string) =>
      (await runGit(['rev-parse', `HEAD:${path}`], { cwd: dir })).trim();
    const includePath = '.gitbook/includes/support-hint.md';
    expect(hint.git).toEqual({ oid: await blobAt(src, includePath), path: includePath });
    const [welcome, install] = rev.pages;
    // Each page includes it by its id (whatever folder the page is in), its own link a page reference.
    for (const page of [welcome!, install!]) {
      const md = await t.call(ops.getPageById, { spaceId: space.id, pageId: page.id, format: 'markdown' }, admin);
      expect((md as { markdown: string }).markdown).toContain(`{% include "${hint.id}" %}`);
    }
    const doc = await t.call(
      ops.getReusableContentDocumentInRevisionById,
      { spaceId: space.id, revisionId: rev.id, reusableContentId: hint.id },
      admin,
    );
    expect(doc).toMatchObject({ nodes: [{ type: 'hint', data: { style: 'info' } }] });
    expect(JSON.stringify(doc)).toContain(`/pages/${install!.id}`);

    // Edited in Quire (a change request merged), exported to the same branch: the include's file changes in place,
    // the pages' files come back byte for byte.
    const cr = await editContent(
      t,
      space.id,
      undefined,
      [{ operation: 'update_reusable_content', reusableContent: hint.id, document: { markdown: 'Write to us.\n' } }],
      ADMIN_ID,
    );
    await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin);
    await t.call(ops.exportToGitRepository, { ...remote, commitMessage: 'From Quire' }, admin);
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success', direction: 'export' } });
    const out = join(server.work, 'handbook-clone');
    await runGit(['clone', '-q', server.urlOf('handbook', auth), out]);
    const read = (p: string) => readFile(join(out, p), 'utf8');
    expect(await read('.gitbook/includes/support-hint.md')).toBe('---\ntitle: Support hint\n---\n\nWrite to us.\n');
    for (const p of ['README.md', 'guides/install.md', 'SUMMARY.md']) expect(await read(p), p).toBe(SOURCE[p]);
    const exported = await t.call(ops.getReusableContentById, { spaceId: space.id, reusableContentId: hint.id }, admin);
    expect(exported.git).toEqual({ oid: await blobAt(out, includePath), path: includePath });

    // Changed in Git: the next import updates the same reusable content (its path keeps its id).
    await write(out, { '.gitbook/includes/support-hint.md': '---\ntitle: Support\n---\n\nCall us.\n' });
    await commitAll(out, 'Edit the hint');
    await runGit(['push', '-q', 'origin', 'main'], { cwd: out });
    await t.call(ops.importGitRepository, remote, admin);
    expect(await settled(space.id)).toMatchObject({ operation: { state: 'success', direction: 'import' } });
    const after = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    expect(after.reusableContents.map((r) => [r.id, r.title])).toEqual([[hint.id, 'Support']]);
    const text = JSON.stringify(
      await t.call(ops.getReusableContentById, { spaceId: space.id, reusableContentId: hint.id }, admin),
    );
    expect(text).toContain('"title":"Support"');
    const live = await t.call(
      ops.getReusableContentDocumentInRevisionById,
      { spaceId: space.id, revisionId: after.id, reusableContentId: hint.id },
      admin,
    );
    expect(JSON.stringify(live)).toContain('Call us.');
  }, 300_000);
});
