import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { encodeCursor } from '@quire/kit';
import { buildSpace, failureOf, orgAdminDirectoryStub, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { insertPage } from '../search/search.fixtures.ts';
import { commitAll, gitOperationSettled, runGit, useGitServer } from '../git/git-http-server.testing.ts';

// GET /v1/spaces/{spaceId}/revisions (Quire-only): the space's history, newest first, along its main line.

const ORG = 'org-history';
const ADMIN_ID = 'admin-history';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);
const guest = userActor('guest-history', [{ organization: ORG, role: null }]);
const stranger = userActor('stranger-history', [{ organization: 'org-elsewhere', role: 'admin' }]);
const auth = { user: 'git-user', password: 'hunter2-secret' };

const t = useTestService(contentService, loadContentConfig, {
  label: 'revisions-history',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});
const server = useGitServer(auth);

/** A change request adding a page, merged: the space's new merge revision. */
async function mergePage(spaceId: string, title: string) {
  const cr = await editContent(t, spaceId, undefined, [insertPage(title, `About ${title}.`)], ADMIN_ID, {
    subject: `Add ${title}`,
  });
  await t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: cr.id }, admin);
  return cr;
}

/** A repository with one page, imported by Git Sync into the space (a change request of Git Sync's, merged). */
async function gitImport(spaceId: string) {
  await server.createRepo('history');
  const src = join(server.work, 'history');
  await runGit(['init', '--initial-branch=main', src]);
  await mkdir(src, { recursive: true });
  await writeFile(join(src, 'SUMMARY.md'), '# Table of contents\n\n* [Synced](README.md)\n');
  await writeFile(join(src, 'README.md'), '# Synced\n\nFrom Git.\n');
  await commitAll(src, 'Write the synced page');
  await runGit(['push', server.urlOf('history', auth), 'main'], { cwd: src });
  await t.call(ops.importGitRepository, { spaceId, url: server.urlOf('history', auth), ref: 'refs/heads/main' }, admin);
  await gitOperationSettled(t, spaceId, admin);
  return (await runGit(['rev-parse', 'HEAD'], { cwd: src })).trim();
}

describe('listRevisionsInSpace', () => {
  it("lists the revisions that were the space's content, newest first, with their change request or commit", async () => {
    // org-admin is not running here: the change requests' authors come from a stub of its directory
    t.svc.deps.peers.use(
      'org-admin',
      orgAdminDirectoryStub({ inOrganization: (o) => o === ORG, members: new Map(), teams: new Set() }),
    );
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'History' });
    const first = await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin);
    const one = await mergePage(space.id, 'One');
    const two = await mergePage(space.id, 'Two');
    // an edit in a change request that is never merged is not the space's history
    const open = await editContent(t, space.id, undefined, [insertPage('Draft', 'Not merged.')], ADMIN_ID);
    const oid = await gitImport(space.id);

    const all = await t.call(ops.listRevisionsInSpace, { spaceId: space.id }, admin);
    expect(all.count).toBe(4);
    expect(all.next).toBeUndefined();
    expect(all.items.map((r) => r.type)).toEqual(['merge', 'merge', 'merge', 'edits']);
    const [synced, second, firstMerge, created] = all.items;
    expect(synced!.git?.oid).toBe(oid);
    expect(synced!.mergedFrom?.createdBy).toBeDefined();
    expect(synced!.pages.map((p) => p.title)).toContain('Synced');
    expect(second!.mergedFrom).toMatchObject({ number: two.number, subject: 'Add Two', status: 'merged' });
    expect(second!.git).toBeUndefined();
    expect(firstMerge!.mergedFrom).toMatchObject({ number: one.number, subject: 'Add One' });
    expect(firstMerge!.pages.map((p) => p.title)).toEqual(['One']);
    expect(created!.id).toBe(first.id);
    expect(created!.mergedFrom).toBeUndefined();
    // each parent is the next one down the list
    expect(all.items.slice(0, 3).map((r) => r.parents[0])).toEqual(all.items.slice(1).map((r) => r.id));
    expect(all.items.map((r) => r.id)).not.toContain(open.revisionId);
    // as getRevisionById answers it, with the change request it merged
    const { mergedFrom: _mergedFrom, ...read } = second!;
    expect(await t.call(ops.getRevisionById, { spaceId: space.id, revisionId: second!.id }, admin)).toEqual(read);

    // pages of 3, then 1: the same revisions
    const page1 = await t.call(ops.listRevisionsInSpace, { spaceId: space.id, limit: 3 }, admin);
    expect(page1.items.map((r) => r.id)).toEqual(all.items.slice(0, 3).map((r) => r.id));
    expect(page1.count).toBe(4);
    const page2 = await t.call(
      ops.listRevisionsInSpace,
      { spaceId: space.id, limit: 3, page: page1.next!.page },
      admin,
    );
    expect(page2.items.map((r) => r.id)).toEqual([first.id]);
    expect(page2.next).toBeUndefined();
    // What a merge changed names the change request it merged, as GitBook's RevisionSemanticChanges does.
    const changed = await t.call(ops.getRevisionSemanticChanges, { spaceId: space.id, revisionId: second!.id }, admin);
    expect(changed.mergedFrom).toMatchObject({ number: two.number, subject: 'Add Two', status: 'merged' });
    expect(changed.changes.map((c) => c.type)).toEqual(['page_created']);
    const initial = await t.call(ops.getRevisionSemanticChanges, { spaceId: space.id, revisionId: first.id }, admin);
    expect(initial.mergedFrom).toBeUndefined();
    // A later merge is counted: each head's count is kept, not the space's.
    await mergePage(space.id, 'Three');
    expect((await t.call(ops.listRevisionsInSpace, { spaceId: space.id, limit: 1 }, admin)).count).toBe(5);
    expect((await t.call(ops.listRevisionsInSpace, { spaceId: space.id, limit: 0 }, admin)).items).toEqual([]);

    // a cursor of no page of this list: 400
    const bad = (page: string) => failureOf(t.call(ops.listRevisionsInSpace, { spaceId: space.id, page }, admin));
    expect((await bad('not-a-cursor')).message).toMatch(/Invalid `page`/);
    expect((await bad(encodeCursor([open.revisionId]))).message).toMatch(/Invalid `page`/);
    expect((await bad(encodeCursor(['nope']))).message).toMatch(/Invalid `page`/);
  });

  it('answers 404 to whoever may not see the space, and lets a member who may see it read it', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Private' });
    expect(await reasonOf(t.call(ops.listRevisionsInSpace, { spaceId: space.id }, stranger))).toBe('not_found');
    expect(await reasonOf(t.call(ops.listRevisionsInSpace, { spaceId: space.id }, guest))).toBe('not_found');
    expect(await reasonOf(t.call(ops.listRevisionsInSpace, { spaceId: 'nope' }, admin))).toBe('not_found');
    expect(await reasonOf(t.call(ops.listRevisionsInSpace, { spaceId: space.id, limit: -1 } as never, admin))).toBe(
      'invalid_input',
    );
  });
});
