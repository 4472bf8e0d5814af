import { beforeAll, describe, expect, it } from 'vitest';
import { newId, sql, type EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { gitSyncRepository, type GitOperationRow } from '../modules/git/git-sync.repository.ts';
import { contentService } from '../service.ts';
import {
  gitOperationClaimer,
  gitOperationFinisher,
  gitOperationQueuer,
  gitPageBlobsRecorder,
  gitProgressRecorder,
  gitRedirectsRecorder,
} from './git-sync-writer.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'git-sync-writer' });
// The service's own Git Sync job would claim and run the operations these tests queue: they are driven here instead.
beforeAll(() => t.svc.jobs?.stop());

const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const t0 = new Date('2031-04-01T08:00:00Z');
const operation = async (id: string) =>
  (await sql<GitOperationRow>(t.em(), 'select * from :schema.git_operation where id = ?', [id]))[0]!;
const queue = (spaceId: string) =>
  inTx((tx) =>
    gitOperationQueuer(tx, {
      spaceId,
      direction: 'import',
      url: 'https://git.example/a.git',
      ref: 'refs/heads/main',
      sealedCredentials: 'sealed',
      params: { commitMessage: 'm', force: true },
      userId: 'u1',
      now: t0,
    }),
  );
const claim = () => inTx((tx) => gitOperationClaimer(tx, { now: t0, leaseUntil: new Date(t0.getTime() + 60_000) }));

describe('gitOperationQueuer and gitOperationFinisher', () => {
  it('queues a pending operation with its sealed credentials; finishing a running one drops them and records the sync', async () => {
    const space = newId();
    const id = await queue(space);
    expect(await operation(id)).toMatchObject({
      space_id: space,
      direction: 'import',
      state: 'pending',
      attempts: 0,
      credentials: 'sealed',
      params: { commitMessage: 'm', force: true },
      requested_by: 'u1',
    });
    // Progress is recorded on running operations only.
    await inTx((tx) => gitProgressRecorder(tx, { operationId: id, progress: { phase: 'fetching' } }));
    expect((await operation(id)).progress).toBeNull();
    // Finishing one that is not running changes nothing (its claim lapsed and another process has it).
    await inTx((tx) => gitOperationFinisher(tx, { operationId: id, outcome: { state: 'success' } }));
    expect((await operation(id)).state).toBe('pending');

    let claimed = await claim();
    while (claimed && claimed.id !== id) claimed = await claim();
    expect(claimed).toMatchObject({ id, state: 'running', attempts: 1 });
    await inTx((tx) => gitProgressRecorder(tx, { operationId: id, progress: { phase: 'parsing', done: 2, total: 5 } }));
    expect((await operation(id)).progress).toEqual({ phase: 'parsing', done: 2, total: 5 });

    const sync = {
      space_id: space,
      id: newId(),
      url: 'https://git.example/a.git',
      ref: 'refs/heads/main',
      tree_url: null,
      project_directory: '',
      credentials: 'sealed',
      last_commit: 'c0ffee',
      last_revision: 'rev-1',
      paths: { 'README.md': { page: 'p1', oid: 'o1' } },
      redirects: { 'old.md': 'p1' },
    };
    const ended = new Date(t0.getTime() + 5_000);
    await inTx((tx) =>
      gitOperationFinisher(tx, {
        operationId: id,
        outcome: { state: 'success', commit: 'c0ffee', revision: 'rev-1' },
        sync,
        now: ended,
      }),
    );
    const done = await operation(id);
    expect(done).toMatchObject({
      state: 'success',
      error: null,
      commit_oid: 'c0ffee',
      revision_id: 'rev-1',
      credentials: null,
      progress: null,
    });
    expect(new Date(done.ended_at!)).toEqual(ended);
    expect(await gitSyncRepository.findSync(t.em(), space)).toMatchObject({
      last_commit: 'c0ffee',
      last_revision: 'rev-1',
      paths: sync.paths,
      redirects: sync.redirects,
    });
  });

  it('a failed operation keeps its error and writes no sync', async () => {
    const space = newId();
    const id = await queue(space);
    let claimed = await claim();
    while (claimed && claimed.id !== id) claimed = await claim();
    await inTx((tx) =>
      gitOperationFinisher(tx, { operationId: id, outcome: { state: 'failure', error: 'repository not found' } }),
    );
    expect(await operation(id)).toMatchObject({ state: 'failure', error: 'repository not found', credentials: null });
    expect(await gitSyncRepository.findSync(t.em(), space)).toBeNull();
  });
});

describe('gitPageBlobsRecorder', () => {
  it("replaces a revision's page blobs", async () => {
    const space = newId();
    const revision = newId();
    const record = (blobs: [string, { oid: string; path: string }][]) =>
      inTx((tx) => gitPageBlobsRecorder(tx, { spaceId: space, revisionId: revision, blobs: new Map(blobs) }));
    await record([
      ['p1', { oid: 'o1', path: 'a.md' }],
      ['p2', { oid: 'o2', path: 'b/README.md' }],
    ]);
    expect(await gitSyncRepository.pageBlobs(t.em(), revision)).toEqual(
      new Map([
        ['p1', { oid: 'o1', path: 'a.md' }],
        ['p2', { oid: 'o2', path: 'b/README.md' }],
      ]),
    );
    await record([['p2', { oid: 'o3', path: 'b.md' }]]);
    expect(await gitSyncRepository.pageBlobs(t.em(), revision)).toEqual(new Map([['p2', { oid: 'o3', path: 'b.md' }]]));
    await record([]);
    expect((await gitSyncRepository.pageBlobs(t.em(), revision)).size).toBe(0);
  });
});

describe('gitRedirectsRecorder', () => {
  it('announces the redirects an import read, and their removal, but not an import without any', async () => {
    const space = { id: newId(), organizationId: 'org-git' };
    const record = (redirects: Record<string, string>, previous: Record<string, string>) =>
      inTx(async (tx) => gitRedirectsRecorder(tx, { space, commit: 'c1', redirects, previous }));
    await record({}, {});
    await record({ 'old.md': 'p1', 'older.md': 'p2' }, {});
    await record({}, { 'old.md': 'p1' });
    const events = (await t.outboxEvents('space.git-redirects-updated')).filter(
      (e) => (e.data as { space: string }).space === space.id,
    );
    expect(events.map((e) => e.data)).toEqual([
      {
        space: space.id,
        organization: 'org-git',
        commit: 'c1',
        redirects: [
          { source: 'old.md', page: 'p1' },
          { source: 'older.md', page: 'p2' },
        ],
      },
      { space: space.id, organization: 'org-git', commit: 'c1', redirects: [] },
    ]);
  });
});
