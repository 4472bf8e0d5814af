import { createHmac } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql, sqlRun } from '@quire/kit';
import { ops, type Actor, type ContentChange, type GitSyncState } from '@quire/contracts';
import { buildSpace, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { deletedSpacePurger } from '../../commands/space-trash.ts';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { ChangeRequest } from '../change-requests/change-request.entity.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { commitAll, gitInfoUntil, runGit, useGitServer } from './git-http-server.testing.ts';
import { queueDuePolls } from './git-sync-runner.ts';

const ORG = 'org1';
const ADMIN_ID = 'admin-user';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);
const editor = userActor('editor', [{ organization: ORG, role: 'edit' }]);
const gateway: Actor = { kind: 'service', service: 'gateway' };
const auth = { user: 'git-user', password: 'hunter2-secret' };
const SECRET = 'webhook-secret-0123456789';

const t = useTestService(contentService, loadContentConfig, {
  label: 'gitconn',
  env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' },
});
const server = useGitServer(auth);

/** A change request edited with the content engine's command (as the API does), not merged. */
const edit = (spaceId: string, crId: string | undefined, changes: ContentChange[]) =>
  editContent(t, spaceId, crId, changes, ADMIN_ID, { refreshConflicts: true });
const merge = (spaceId: string, cr: { id: string }) =>
  t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: cr.id }, admin);
const setText = (page: string, markdown: string): ContentChange => ({
  operation: 'update_page',
  page,
  document: { markdown },
});
const live = async (spaceId: string, pageId: string) =>
  ((await t.call(ops.getPageById, { spaceId, pageId, format: 'markdown' }, admin)) as { markdown: string }).markdown;

/** Waits until the space's Git info satisfies `ok` (the job and the event consumer run the sync). */
const until = (spaceId: string, ok: (info: GitSyncState) => boolean, what: string) =>
  gitInfoUntil(t, spaceId, admin, 25_000, ok, what);
const inSync = (commit?: string) => (i: GitSyncState) =>
  i.sync?.state === 'in-sync' && (commit === undefined || i.sync.lastCommit === commit);

const headOf = async (dir: string) => (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim();
const hook = (connectionId: string, body: string, signature: string) =>
  t.call(
    ops.importGitHook,
    { connectionId, body: Buffer.from(body).toString('base64'), hubSignature: signature },
    gateway,
  );
const signed = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

const TEXT = 'Install it.\n\nConfigure the token.\n\nRun it.\n';

describe('continuous Git sync (git http-backend on loopback)', () => {
  it('connects, exports merges, imports pushes (webhook, poll), and turns a conflict into a change request', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Synced' });
    const first = await edit(space.id, undefined, [
      { operation: 'insert_page', title: 'Guide', document: { markdown: TEXT } },
    ]);
    await merge(space.id, first);
    const pageId = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages[0]!.id;
    await server.createRepo('synced');

    // An editor may not connect (it imports into main); an admin connects: the empty branch gets the content.
    const body = {
      spaceId: space.id,
      url: server.urlOf('synced', auth),
      ref: 'refs/heads/main',
      webhookSecret: SECRET,
    };
    expect(await reasonOf(t.call(ops.updateSpaceGitConnection, body, editor))).toBe('forbidden');
    const connection = await t.call(ops.updateSpaceGitConnection, { ...body, pollInterval: 60 }, admin);
    expect(connection).toMatchObject({
      hasCredentials: true,
      hasWebhookSecret: true,
      pollInterval: 60,
      repoProjectDirectory: '',
    });
    expect(connection.webhookURL).toMatch(new RegExp(`/v1/git/hooks/${connection.id}$`));
    expect(JSON.stringify(connection)).not.toContain(auth.password);
    expect(JSON.stringify(connection)).not.toContain(SECRET);
    expect(await t.call(ops.getSpaceGitConnection, { spaceId: space.id }, editor)).toEqual(connection);
    const exported = await until(space.id, inSync(), 'the first export');
    expect(exported.sync).toMatchObject({ connected: true });
    const clone = join(server.work, 'clone');
    await runGit(['clone', server.urlOf('synced', auth), clone]);
    expect(await readFile(join(clone, 'guide.md'), 'utf8')).toContain('Configure the token.');
    expect(exported.sync!.lastCommit).toBe(await headOf(clone));

    // A merge into main is exported (an event, then the job).
    await merge(space.id, await edit(space.id, undefined, [setText(pageId, `${TEXT}\nFrom Quire.\n`)]));
    await until(space.id, (i) => inSync()(i) && i.sync!.lastCommit !== exported.sync!.lastCommit, 'the merge exported');
    await runGit(['pull', '--ff-only'], { cwd: clone });
    expect(await readFile(join(clone, 'guide.md'), 'utf8')).toContain('From Quire.');

    // A push, announced by a signed webhook, is imported: same page id. A bad signature is refused.
    const file = join(clone, 'guide.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('From Quire.', 'From Quire.\n\nFrom Git.'));
    await commitAll(clone, 'edit from git');
    await runGit(['push'], { cwd: clone });
    const payload = JSON.stringify({ ref: 'refs/heads/main', after: await headOf(clone) });
    expect(await reasonOf(hook(connection.id, payload, signed(`${payload} `)))).toBe('unauthenticated');
    expect(
      await hook(
        connection.id,
        JSON.stringify({ ref: 'refs/heads/other' }),
        signed(JSON.stringify({ ref: 'refs/heads/other' })),
      ),
    ).toEqual({ queued: false });
    expect(await hook(connection.id, payload, signed(payload))).toEqual({ queued: true });
    await until(space.id, inSync(await headOf(clone)), 'the webhook import');
    expect(await live(space.id, pageId)).toContain('From Git.');
    // The revision Git made carries GitBook's `git`.
    expect((await t.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).git).toEqual({
      oid: await headOf(clone),
      message: 'edit from git\n',
      createdByGitBook: false,
      url: server.urlOf('synced'),
      ref: 'refs/heads/main',
    });

    // A push found by the poll (its interval is up).
    await writeFile(file, (await readFile(file, 'utf8')).replace('Run it.', 'Run it twice.'));
    await commitAll(clone, 'polled');
    await runGit(['push'], { cwd: clone });
    expect(await queueDuePolls({ em: t.em() }, new Date(Date.now() + 61_000))).toBe(1);
    await until(space.id, inSync(await headOf(clone)), 'the polled import');
    expect(await live(space.id, pageId)).toContain('Run it twice.');

    // Both sides change the same sentence: main keeps its side, the remote's comes as an open change request
    // holding both in a conflict block; the sync waits for it, then exports the resolution.
    await writeFile(file, (await readFile(file, 'utf8')).replace('the token', 'the git token'));
    await commitAll(clone, 'git side');
    await runGit(['push'], { cwd: clone });
    const gitSide = await headOf(clone);
    await merge(
      space.id,
      await edit(space.id, undefined, [
        setText(pageId, (await live(space.id, pageId)).replace('the token', 'the quire token')),
      ]),
    );
    const conflicted = await until(space.id, (i) => i.sync?.state === 'conflict', 'the conflict change request');
    expect(conflicted.sync, JSON.stringify(conflicted.sync)).toMatchObject({
      lastCommit: gitSide,
      changeRequestId: expect.any(String),
    });
    expect(await live(space.id, pageId)).toContain('the quire token');
    const crId = conflicted.sync!.changeRequestId!;
    expect(await t.em().findOneOrFail(ChangeRequest, { id: crId })).toMatchObject({ status: 'open' });
    const inCr = (
      (await t.call(
        ops.getPageInChangeRequestById,
        { spaceId: space.id, changeRequestId: crId, pageId, format: 'markdown' },
        admin,
      )) as {
        markdown: string;
      }
    ).markdown;
    expect(inCr).toContain('{% conflict %}');
    expect(inCr).toContain('the git token');
    expect(inCr).toContain('the quire token');

    await edit(space.id, crId, [
      setText(pageId, (await live(space.id, pageId)).replace('the quire token', 'the git and quire token')),
    ]);
    expect((await merge(space.id, { id: crId })).result).toBe('merge');
    await until(space.id, (i) => inSync()(i) && i.sync!.lastCommit !== gitSide, 'the resolution exported');
    await runGit(['pull', '--ff-only'], { cwd: clone });
    expect(await readFile(file, 'utf8')).toContain('the git and quire token');

    // Polls add operations: a connected space keeps its latest 50 ended ones.
    for (let i = 0; i < 60; i++)
      await sqlRun(
        t.em(),
        `insert into :schema.git_operation (id, space_id, direction, url, ref, requested_by, state, created_at, ended_at)
         values (?, ?, 'import', ?, 'refs/heads/main', 'x', 'success', ?, ?)`,
        [
          `old-${i}`,
          space.id,
          connection.url,
          new Date(Date.UTC(2020, 0, 1, 0, i)),
          new Date(Date.UTC(2020, 0, 1, 0, i)),
        ],
      );
    expect(await queueDuePolls({ em: t.em() }, new Date(Date.now() + 3_600_000))).toBe(1);
    const [{ ended }] = (await sql<{ ended: number }>(
      t.em(),
      `select count(*)::int as ended from :schema.git_operation where space_id = ? and state in ('success', 'failure', 'timeout')`,
      [space.id],
    )) as [{ ended: number }];
    expect(ended).toBe(50);
    await until(space.id, inSync(), 'the poll');

    // Disconnecting keeps the sync state; the connection is gone.
    await t.call(ops.deleteSpaceGitConnection, { spaceId: space.id }, admin);
    expect(await reasonOf(t.call(ops.getSpaceGitConnection, { spaceId: space.id }, admin))).toBe('not_found');
    expect((await t.call(ops.getSpaceGitInfo, { spaceId: space.id }, admin)).sync).toMatchObject({ connected: false });
    expect(await reasonOf(hook(connection.id, payload, signed(payload)))).toBe('not_found');
  }, 120_000);

  it('deleting a space removes its connection: no more polls, its webhook 404, its waiting operations end', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin, title: 'Doomed' });
    await server.createRepo('doomed');
    const connection = await t.call(
      ops.updateSpaceGitConnection,
      { spaceId: space.id, url: server.urlOf('doomed', auth), ref: 'refs/heads/main', webhookSecret: SECRET },
      admin,
    );
    await until(space.id, inSync(), 'the first export');
    const payload = JSON.stringify({ ref: 'refs/heads/main' });
    // An operation stuck behind one running (for an hour) waits: the deletion ends it.
    await sqlRun(
      t.em(),
      `insert into :schema.git_operation (id, space_id, direction, url, ref, requested_by, state, lease_until, created_at)
       values ('blocker', ?, 'import', ?, 'refs/heads/main', 'x', 'running', now() + interval '1 hour', now())`,
      [space.id, connection.url],
    );
    expect(await hook(connection.id, payload, signed(payload))).toEqual({ queued: true });

    await t.call(ops.deleteSpaceById, { spaceId: space.id }, admin);
    const rows = async (table: string) =>
      (
        await sql<{ n: number }>(t.em(), `select count(*)::int as n from :schema.${table} where space_id = ?`, [
          space.id,
        ])
      )[0]!.n;
    expect(await rows('git_connection')).toBe(0);
    expect(await reasonOf(hook(connection.id, payload, signed(payload)))).toBe('not_found');
    const waiting = await sql<{ state: string; error: string | null }>(
      t.em(),
      `select state, error from :schema.git_operation where space_id = ? and id <> 'blocker' order by created_at desc limit 1`,
      [space.id],
    );
    expect(waiting).toEqual([{ state: 'failure', error: 'The space was deleted' }]);
    // Its poll never comes: nothing is queued for it however late.
    await queueDuePolls({ em: t.em() }, new Date(Date.now() + 86_400_000));
    expect(
      await sql(t.em(), `select 1 from :schema.git_operation where space_id = ? and state = 'pending'`, [space.id]),
    ).toEqual([]);

    // Purged (after the restore window), everything Git Sync held of it goes, sealed credentials included.
    expect(await rows('git_sync')).toBe(1);
    const purged = await t
      .em()
      .transactional((tx) => deletedSpacePurger(tx, { now: new Date(Date.now() + 8 * 86_400_000), limit: 100 }));
    expect(purged).toContain(space.id);
    for (const table of ['git_sync', 'git_operation', 'git_revision', 'git_page_blob'])
      expect(await rows(table)).toBe(0);
  }, 60_000);
});
