import { exec } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sql, sqlRun } from '@quire/kit';
import { ops, type Actor, type GitSyncState } from '@quire/contracts';
import { buildSpace, eventually, png, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { commitAll, gitInfoUntil, runGit, useGitServer } from './git-http-server.testing.ts';
import { queueDuePolls } from './git-sync-runner.ts';

const ORG = 'org1';
const ADMIN_ID = 'admin-user';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);
const gateway: Actor = { kind: 'service', service: 'gateway' };
const auth = { user: 'git-user', password: 'hunter2-secret' };
const SECRET = 'webhook-secret-0123456789';
const MAX_FILE = 1024 * 1024;

const t = useTestService(contentService, loadContentConfig, {
  label: 'gitbounds',
  // The Git server is on loopback: allowed by name, as an intranet Git host (not QUIRE_ALLOW_PRIVATE_FETCH).
  env: { QUIRE_GIT_PRIVATE_HOSTS: '127.0.0.1', QUIRE_GIT_MAX_FILE_BYTES: String(MAX_FILE) },
});
const server = useGitServer(auth);
const runShell = (command: string, cwd: string) =>
  new Promise<void>((resolve, reject) => exec(command, { cwd }, (err) => (err ? reject(err) : resolve())));

const until = (spaceId: string, ok: (info: GitSyncState) => boolean, what: string) =>
  gitInfoUntil(t, spaceId, admin, 60_000, ok, what);

/** A working tree of repository `name` on the server: README.md and a 50 MB file of zeros (50 KB compressed). */
async function bombRepo(name: string): Promise<string> {
  await server.createRepo(name);
  const dir = await mkdtemp(join(server.work, `${name}-`));
  await runGit(['init', '--initial-branch=main', dir]);
  await writeFile(join(dir, 'README.md'), '# Docs\n\nHello.\n');
  await runShell('head -c 50000000 /dev/zero > zeros.bin', dir);
  await commitAll(dir, 'a bomb');
  await runGit(['-c', 'pack.compression=1', 'push', server.urlOf(name, auth), 'main'], { cwd: dir });
  return dir;
}

const uploads = () => server.requests.filter((r) => r.startsWith('POST') && r.includes('git-upload-pack')).length;
const BOMB_ERROR = new RegExp(
  `a Git object of the commit is 50000000 bytes inflated, more than the ${MAX_FILE} allowed`,
);

describe('Git Sync bounded (git http-backend on loopback)', () => {
  it('refuses a decompression bomb with a clear error, and a connection does not fetch the refused commit again', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Bombed' });
    const dir = await bombRepo('bomb');
    const url = server.urlOf('bomb', auth);
    await t.call(ops.importGitRepository, { spaceId: space.id, url, ref: 'refs/heads/main' }, admin);
    const failed = await until(space.id, (i) => i.operation?.state === 'failure', 'the import fails');
    expect(failed.operation!.error).toMatch(BOMB_ERROR);
    expect(failed.sync).toMatchObject({ state: 'error', lastError: expect.stringMatching(BOMB_ERROR) });

    // Connected: the first sync is refused the same way and remembered; a poll does not fetch the commit again.
    const body = {
      spaceId: space.id,
      url,
      ref: 'refs/heads/main',
      webhookSecret: SECRET,
      initialSync: 'import' as const,
    };
    const connection = await t.call(ops.updateSpaceGitConnection, body, admin);
    await until(space.id, (i) => i.sync?.connected === true && i.sync.state === 'error', 'the sync is refused');
    const fetched = uploads();
    const runs = async () =>
      (
        await sql<{ n: number }>(t.em(), 'select count(*)::int as n from :schema.git_operation where space_id = ?', [
          space.id,
        ])
      )[0]!.n;
    const before = await runs();
    await sqlRun(t.em(), `update :schema.git_connection set next_poll_at = now() - interval '1 second' where id = ?`, [
      connection.id,
    ]);
    await queueDuePolls({ em: t.em() });
    await eventually(async () => (await runs()) > before || undefined, 30_000, 'a poll is queued');
    const polled = await until(space.id, (i) => i.sync?.state === 'error' && i.operation?.state === 'failure', 'poll');
    expect(polled.sync!.lastError).toMatch(BOMB_ERROR);
    expect(uploads()).toBe(fetched);

    // The branch moves on without the bomb: the next sync imports it.
    await rm(join(dir, 'zeros.bin'));
    await commitAll(dir, 'no more bomb');
    await runGit(['push', url, 'main'], { cwd: dir });
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    await sqlRun(t.em(), `update :schema.git_connection set next_poll_at = now() - interval '1 second' where id = ?`, [
      connection.id,
    ]);
    await queueDuePolls({ em: t.em() });
    await until(space.id, (i) => i.sync?.state === 'in-sync' && i.sync.lastCommit === head, 'the fix is imported');
  }, 180_000);

  it('does not read nor store again a file whose blob the last sync stored', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Pictures' });
    await server.createRepo('pictures');
    const dir = await mkdtemp(join(server.work, 'pictures-'));
    await runGit(['init', '--initial-branch=main', dir]);
    await mkdir(join(dir, '.gitbook/assets'), { recursive: true });
    await writeFile(
      join(dir, '.gitbook/assets/logo.png'),
      png(40, 20, () => [200, 40, 40]),
    );
    await writeFile(join(dir, 'README.md'), '# Pictures\n\n![Logo](.gitbook/assets/logo.png)\n');
    await commitAll(dir, 'first');
    const url = server.urlOf('pictures', auth);
    await runGit(['push', url, 'main'], { cwd: dir });
    const puts = vi.spyOn(t.svc.deps.blobs, 'put');
    const imported = async (force: boolean) => {
      const before = puts.mock.calls.length;
      await t.call(ops.importGitRepository, { spaceId: space.id, url, ref: 'refs/heads/main', force }, admin);
      await until(space.id, (i) => i.operation?.state === 'success', 'the import');
      return puts.mock.calls.length - before;
    };
    try {
      expect(await imported(false)).toBe(1);
      const [file] = (await t.call(ops.listFiles, { spaceId: space.id }, admin)).items;
      expect(file).toMatchObject({ name: 'logo.png', contentType: 'image/png', dimensions: { width: 40, height: 20 } });
      // The same commit again: the image's blob is known (same Git blob, same stored key), it is not read.
      expect(await imported(true)).toBe(0);
      const { downloadURL: _, ...same } = file!;
      const again = (await t.call(ops.listFiles, { spaceId: space.id }, admin)).items;
      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject(same);
      // A new image: read and stored.
      await writeFile(
        join(dir, '.gitbook/assets/logo.png'),
        png(30, 30, () => [20, 40, 200]),
      );
      await commitAll(dir, 'new logo');
      await runGit(['push', url, 'main'], { cwd: dir });
      expect(await imported(false)).toBe(1);
    } finally {
      puts.mockRestore();
    }
  }, 120_000);

  it('acknowledges a replayed webhook delivery without queuing anything', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Hooked' });
    await server.createRepo('hooked');
    const dir = await mkdtemp(join(server.work, 'hooked-'));
    await runGit(['init', '--initial-branch=main', dir]);
    await writeFile(join(dir, 'README.md'), '# Hooked\n');
    await commitAll(dir, 'first');
    await runGit(['push', server.urlOf('hooked', auth), 'main'], { cwd: dir });
    const url = server.urlOf('hooked', auth);
    const connection = await t.call(
      ops.updateSpaceGitConnection,
      { spaceId: space.id, url, ref: 'refs/heads/main', webhookSecret: SECRET },
      admin,
    );
    await until(space.id, (i) => i.sync?.state === 'in-sync', 'the first sync');
    const payload = JSON.stringify({ ref: 'refs/heads/main' });
    const hook = (deliveryId: string) =>
      t.call(
        ops.importGitHook,
        {
          connectionId: connection.id,
          body: Buffer.from(payload).toString('base64'),
          hubSignature: `sha256=${createHmac('sha256', SECRET).update(payload).digest('hex')}`,
          deliveryId,
        },
        gateway,
      );
    expect(await hook('delivery-1')).toEqual({ queued: true });
    await until(space.id, (i) => i.sync?.state === 'in-sync' && i.operation?.state === 'success', 'the hook sync');
    const count = async () =>
      (
        await sql<{ n: number }>(t.em(), 'select count(*)::int as n from :schema.git_operation where space_id = ?', [
          space.id,
        ])
      )[0]!.n;
    const before = await count();
    // The same delivery again (a replay): acknowledged, nothing queued; a new delivery queues a sync.
    expect(await hook('delivery-1')).toEqual({ queued: false, replayed: true });
    expect(await count()).toBe(before);
    expect(await hook('delivery-2')).toEqual({ queued: true });
    expect(await count()).toBe(before + 1);
  }, 120_000);

  it('imports through merge rules nobody could satisfy: Git Sync merges as its system actor', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Ruled' });
    await t.call(
      ops.updateSpaceById,
      { spaceId: space.id, mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] } },
      admin,
    );
    await server.createRepo('ruled');
    const dir = await mkdtemp(join(server.work, 'ruled-'));
    await runGit(['init', '--initial-branch=main', dir]);
    await writeFile(join(dir, 'README.md'), '# Ruled\n\nFrom Git.\n');
    await commitAll(dir, 'first');
    await runGit(['push', server.urlOf('ruled', auth), 'main'], { cwd: dir });
    const url = server.urlOf('ruled', auth);
    await t.call(ops.importGitRepository, { spaceId: space.id, url, ref: 'refs/heads/main' }, admin);
    const done = await until(space.id, (i) => i.operation?.state !== 'running', 'the import ends');
    expect(done.operation).toMatchObject({ state: 'success' });
    const pages = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages;
    expect(pages.map((p) => p.title)).toContain('Ruled');
    // A member's change request is still held to the rules.
    const cr = await editContent(
      t,
      space.id,
      undefined,
      [{ operation: 'insert_page', title: 'Mine', document: { markdown: 'x\n' } }],
      ADMIN_ID,
    );
    await expect(t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin)).rejects.toThrow(
      /merge rules/,
    );
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain('From Git.');
  }, 120_000);
});
