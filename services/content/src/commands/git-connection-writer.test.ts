import { beforeAll, describe, expect, it } from 'vitest';
import { newId, sql, sqlRun, type EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { gitConnectionRepository, type GitConnectionRow } from '../modules/git/git-connection.repository.ts';
import type { GitOperationRow } from '../modules/git/git-sync.repository.ts';
import { contentService } from '../service.ts';
import {
  DEFAULT_POLL_INTERVAL_SECONDS,
  gitConnectionWriter,
  gitHookQueuer,
  gitPollQueuer,
  gitSpaceDetacher,
  gitSpacesForgetter,
  gitSyncQueuer,
  type GitConnectionWriterProps,
} from './git-connection-writer.ts';
import { gitOperationQueuer } from './git-sync-writer.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'git-connection' });
// The service's own Git Sync job would claim and run the operations these tests queue: they are driven here instead.
beforeAll(() => t.svc.jobs?.stop());

const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const t0 = new Date('2031-03-01T10:00:00Z');
const connection = (spaceId: string) => gitConnectionRepository.findBySpace(t.em(), spaceId);
const operations = (spaceId: string) =>
  sql<GitOperationRow>(t.em(), 'select * from :schema.git_operation where space_id = ? order by created_at, id', [
    spaceId,
  ]);

/** Connects (or reconnects) a space as the operation does: the current connection read first. */
const connect = (spaceId: string, props: Partial<GitConnectionWriterProps> = {}) =>
  inTx(async (tx) =>
    gitConnectionWriter(tx, {
      id: newId(),
      spaceId,
      current: await gitConnectionRepository.findBySpace(tx, spaceId),
      url: 'https://git.example/org/docs.git',
      ref: 'refs/heads/main',
      projectDirectory: '',
      sealedCredentials: undefined,
      sealedWebhookSecret: undefined,
      pollInterval: undefined,
      initialSync: undefined,
      userId: 'connector',
      now: t0,
      ...props,
    }),
  );
/** The space's pending operations end (as the sync job would), so the next sync can be queued. */
const endOperations = (spaceId: string) =>
  sqlRun(t.em(), `update :schema.git_operation set state = 'success', ended_at = now() where space_id = ?`, [spaceId]);

describe('gitConnectionWriter', () => {
  it('connects with the default poll interval and queues the first sync (import, unless export is asked)', async () => {
    const space = newId();
    const saved = await connect(space, { sealedCredentials: 'sealed-1', projectDirectory: 'docs' });
    expect(saved).toMatchObject({
      space_id: space,
      credentials: 'sealed-1',
      project_directory: 'docs',
      poll_interval_seconds: DEFAULT_POLL_INTERVAL_SECONDS,
      created_by: 'connector',
    });
    expect(new Date(saved.next_poll_at).getTime()).toBe(t0.getTime() + DEFAULT_POLL_INTERVAL_SECONDS * 1000);
    expect(
      (await operations(space)).map(({ direction, state, credentials, params, requested_by }) => ({
        direction,
        state,
        credentials,
        params,
        requested_by,
      })),
    ).toEqual([
      {
        direction: 'import',
        state: 'pending',
        credentials: 'sealed-1',
        params: { trigger: 'connect', repoProjectDirectory: 'docs' },
        requested_by: 'connector',
      },
    ]);

    const other = newId();
    await connect(other, { initialSync: 'export', pollInterval: 60 });
    const [op] = await operations(other);
    expect(op).toMatchObject({ direction: 'export', params: { trigger: 'connect', initialSync: 'export' } });
    expect((await connection(other))!.poll_interval_seconds).toBe(60);
  });

  it('keeps the credentials, author and conflict of the same remote; drops them for another one', async () => {
    const space = newId();
    const first = await connect(space, {
      sealedCredentials: 'sealed-1',
      sealedWebhookSecret: 'hook-1',
      pollInterval: 120,
    });
    await inTx((tx) => gitConnectionRepository.setConflict(tx, first.id, 'cr-1'));
    await inTx((tx) => gitConnectionRepository.setRefused(tx, first.id, 'abc', 'too big'));
    await endOperations(space);

    const later = new Date(t0.getTime() + 60_000);
    const same = await connect(space, { userId: 'someone-else', now: later });
    expect(same).toMatchObject({
      id: first.id,
      credentials: 'sealed-1',
      webhook_secret: 'hook-1',
      poll_interval_seconds: 120,
      created_by: 'connector',
      conflict_change_request: 'cr-1',
      refused_commit: null,
      refused_error: null,
    });
    expect(new Date(same.created_at)).toEqual(t0);
    expect(new Date(same.updated_at)).toEqual(later);
    await endOperations(space);

    const moved = await connect(space, { ref: 'refs/heads/other', now: later });
    expect(moved).toMatchObject({ credentials: null, webhook_secret: 'hook-1', conflict_change_request: null });
    // Credentials given as null: none, even for the same remote.
    await endOperations(space);
    expect(await connect(space, { ref: 'refs/heads/other', sealedCredentials: 'sealed-2' })).toMatchObject({
      credentials: 'sealed-2',
    });
    await endOperations(space);
    expect(await connect(space, { ref: 'refs/heads/other', sealedCredentials: null })).toMatchObject({
      credentials: null,
    });
  });
});

describe('gitSyncQueuer and gitHookQueuer', () => {
  it('queues one sync at a time: none while one is waiting', async () => {
    const space = newId();
    const saved = await connect(space);
    expect(await inTx((tx) => gitSyncQueuer(tx, { connection: saved, trigger: 'poll' }))).toBeNull();
    await endOperations(space);
    const id = await inTx((tx) => gitSyncQueuer(tx, { connection: saved, trigger: 'merge' }));
    expect(id).toEqual(expect.any(String));
    expect((await operations(space)).find((o) => o.id === id)).toMatchObject({
      direction: 'export',
      state: 'pending',
      params: { trigger: 'merge' },
    });
  });

  it('a push webhook: a replayed delivery does nothing, another branch queues nothing, its branch queues a sync', async () => {
    const space = newId();
    const saved = await connect(space);
    await endOperations(space);
    const hook = (ofItsBranch: boolean, deliveryId?: string) =>
      inTx((tx) => gitHookQueuer(tx, { connection: saved, ofItsBranch, deliveryId, now: t0 }));
    expect(await hook(false, 'd-1')).toEqual({ queued: false });
    expect(await hook(true, 'd-1')).toEqual({ queued: false, replayed: true });
    expect(await operations(space)).toHaveLength(1);
    expect(await hook(true, 'd-2')).toEqual({ queued: true });
    expect(await hook(true, 'd-3')).toEqual({ queued: false });
    expect((await operations(space)).map((o) => [o.state, o.params.trigger]).sort()).toEqual([
      ['pending', 'hook'],
      ['success', 'connect'],
    ]);
  });
});

describe('detaching and forgetting', () => {
  it('a trashed space loses its connection and its waiting operations fail; forgetting removes the rest', async () => {
    const space = newId();
    await connect(space, { sealedCredentials: 'sealed' });
    await inTx((tx) => gitSpaceDetacher(tx, { spaceId: space, now: t0 }));
    expect(await connection(space)).toBeNull();
    expect(await operations(space)).toEqual([
      expect.objectContaining({ state: 'failure', error: 'The space was deleted', credentials: null }),
    ]);
    await inTx((tx) => gitSpacesForgetter(tx, { spaceIds: [space] }));
    expect(await operations(space)).toEqual([]);
  });
});

describe('gitPollQueuer', () => {
  it('claims the due polls, moves them on by their interval, queues their syncs and keeps 50 ended operations', async () => {
    const space = newId();
    const saved = await connect(space, { pollInterval: 60 });
    await endOperations(space);
    for (let i = 0; i < 55; i++)
      await inTx((tx) =>
        gitOperationQueuer(tx, {
          spaceId: space,
          direction: 'import',
          url: saved.url,
          ref: saved.ref,
          sealedCredentials: null,
          params: {},
          userId: 'u',
          now: new Date(t0.getTime() - (i + 1) * 1000),
        }),
      );
    await endOperations(space);
    const notYet = new Date(t0.getTime() + 59_000);
    const due = new Date(t0.getTime() + 61_000);
    const polled = async (now: Date) => {
      const n = await inTx((tx) => gitPollQueuer(tx, { now, max: 1000 }));
      return (
        n > 0 && new Date((await connection(space))!.next_poll_at).getTime() !== new Date(saved.next_poll_at).getTime()
      );
    };
    expect(await polled(notYet)).toBe(false);
    expect(await polled(due)).toBe(true);
    const after: GitConnectionRow = (await connection(space))!;
    expect(new Date(after.next_poll_at).getTime()).toBe(due.getTime() + 60_000);
    const ops = await operations(space);
    expect(ops.filter((o) => o.state === 'success')).toHaveLength(50);
    expect(ops.filter((o) => o.state === 'pending').map((o) => o.params.trigger)).toEqual(['poll']);
    // With a sync waiting, the next due poll is not claimed.
    await inTx((tx) => gitPollQueuer(tx, { now: new Date(due.getTime() + 61_000), max: 1000 }));
    expect(new Date((await connection(space))!.next_poll_at)).toEqual(new Date(after.next_poll_at));
    expect(await operations(space)).toHaveLength(51);
  });
});
