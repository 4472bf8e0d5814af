import { createHmac } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitBookAPI, GitSyncState } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commitAll,
  runGit,
  useGitServer,
} from '../../../../services/content/src/modules/git/git-http-server.testing.ts';
import { apiError, type Boot, bootstrap, type Platform, startPlatform } from './harness.ts';

const auth = { user: 'ci', password: 'pa55-w0rd-e2e' };
const server = useGitServer(auth);
let p: Platform;
let guarded: Platform;

beforeAll(async () => {
  [p, guarded] = await Promise.all([startPlatform({ env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' } }), startPlatform()]);
});
afterAll(async () => {
  await Promise.all([p?.stop(), guarded?.stop()]);
});

/** getSpaceGitInfo until the latest operation ended. */
async function settled(api: GitBookAPI, spaceId: string): Promise<GitSyncState> {
  for (let i = 0; i < 300; i++) {
    const info = (await api.spaces.getSpaceGitInfo(spaceId)).data;
    if (info.operation && info.operation.state !== 'running') return info;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the Git operation did not end');
}

const ids = (pages: { id: string; pages?: unknown[] }[]): string[] =>
  pages.flatMap((pg) => [pg.id, ...ids((pg.pages ?? []) as never)]);

describe('Git Sync end to end (official client, git http-backend on loopback)', () => {
  it('imports a GitBook repository, exports to a bare repository, and takes a git push back with the same ids', async () => {
    const boot: Boot = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
    const api = p.client(boot.token);
    const space = (await api.orgs.createSpace(boot.organization.id, { title: 'Handbook' })).data;
    expect(await apiError(api.spaces.getSpaceGitInfo(space.id))).toMatchObject({ code: 404 });

    await server.createRepo('handbook');
    const src = join(server.work, 'src');
    await runGit(['init', '--initial-branch=main', src]);
    await mkdir(join(src, 'guide'), { recursive: true });
    await writeFile(
      join(src, 'SUMMARY.md'),
      '# Summary\n\n* [Intro](README.md)\n* [Guide](guide/README.md)\n  * [Usage](guide/usage.md)\n',
    );
    await writeFile(join(src, 'README.md'), '# Intro\n\nSee [usage](guide/usage.md).\n');
    await writeFile(join(src, 'guide/README.md'), '# Guide\n\nThe guide.\n');
    await writeFile(join(src, 'guide/usage.md'), '---\ndescription: How to use it\n---\n\n# Usage\n\nUse it.\n');
    await commitAll(src, 'docs');
    await runGit(['push', server.urlOf('handbook', auth), 'main'], { cwd: src });

    const queued = await api.spaces.importGitRepository(space.id, {
      url: server.urlOf('handbook', auth),
      ref: 'refs/heads/main',
    });
    expect(queued.status).toBe(204);
    const info = await settled(api, space.id);
    expect(info).toMatchObject({
      installationStatus: 'active',
      repoName: 'handbook',
      operation: { state: 'success', direction: 'import' },
    });
    expect(JSON.stringify(info)).not.toContain(auth.password);
    const pages = (await api.spaces.listPages(space.id)).data.pages;
    expect(
      pages.map((pg) => [pg.title, (pg as { pages?: { title: string }[] }).pages?.map((c) => c.title) ?? []]),
    ).toEqual([
      ['Intro', []],
      ['Guide', ['Usage']],
    ]);
    const before = ids(pages as never).sort();

    await server.createRepo('mirror');
    const exported = await api.spaces.exportToGitRepository(space.id, {
      url: server.urlOf('mirror', auth),
      ref: 'refs/heads/main',
      commitMessage: 'Sync from Quire',
    });
    expect(exported.status).toBe(204);
    expect(await settled(api, space.id)).toMatchObject({ operation: { state: 'success', direction: 'export' } });
    const clone = join(server.work, 'mirror');
    await runGit(['clone', server.urlOf('mirror', auth), clone]);
    // The commit is the member's, by name and e-mail.
    expect(await runGit(['log', '-1', '--format=%an <%ae>|%cn <%ce>'], { cwd: clone })).toBe(
      'Ann <ann@acme.io>|Ann <ann@acme.io>\n',
    );
    expect(await readFile(join(clone, 'guide/usage.md'), 'utf8')).toBe(
      '---\ndescription: How to use it\n---\n\n# Usage\n\nUse it.\n',
    );
    expect(await readFile(join(clone, 'README.md'), 'utf8')).toContain('[usage](guide/usage.md)');

    await writeFile(join(clone, 'guide/usage.md'), '---\ndescription: How to use it\n---\n\n# Usage\n\nUse it well.\n');
    await commitAll(clone, 'edited in git');
    await runGit(['push'], { cwd: clone });
    await api.spaces.importGitRepository(space.id, { url: server.urlOf('mirror', auth), ref: 'refs/heads/main' });
    expect(await settled(api, space.id)).toMatchObject({ operation: { state: 'success', direction: 'import' } });
    const after = (await api.spaces.listPages(space.id)).data.pages;
    expect(ids(after as never).sort()).toEqual(before);
    const usage = (after[1] as { pages: { id: string }[] }).pages[0]!;
    const page = (await api.spaces.getPageById(space.id, usage.id, { format: 'markdown' })).data as {
      markdown?: string;
    };
    expect(page.markdown).toContain('Use it well.');

    // Continuous sync (Quire-specific): connected, a push announced by a signed webhook comes in by itself.
    const secret = 'e2e-webhook-secret-0123';
    const headers = { authorization: `Bearer ${boot.token}`, 'content-type': 'application/json' };
    const put = await fetch(`${p.url}/v1/spaces/${space.id}/git/connection`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ url: server.urlOf('mirror', auth), ref: 'refs/heads/main', webhookSecret: secret }),
    });
    expect(put.status).toBe(200);
    const connection = (await put.json()) as { id: string; webhookURL: string; hasCredentials: boolean };
    expect(connection.hasCredentials).toBe(true);
    expect(JSON.stringify(connection)).not.toContain(secret);
    await writeFile(
      join(clone, 'guide/usage.md'),
      '---\ndescription: How to use it\n---\n\n# Usage\n\nUse it daily.\n',
    );
    await commitAll(clone, 'pushed, announced');
    await runGit(['push'], { cwd: clone });
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    const body = JSON.stringify({ ref: 'refs/heads/main', after: head });
    const hub = (b: string) => `sha256=${createHmac('sha256', secret).update(b).digest('hex')}`;
    const hookUrl = `${p.url}/v1/git/hooks/${connection.id}`;
    const send = (b: string, signature: string, delivery?: string) =>
      fetch(hookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signature,
          ...(delivery ? { 'x-github-delivery': delivery } : {}),
        },
        body: b,
      });
    const bad = await send(body, hub(`${body}x`));
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { code: 401 } });
    expect((await send('x'.repeat(300 * 1024), hub('x'))).status).toBe(413);
    const good = await send(body, hub(body));
    expect(good.status).toBe(202);
    for (let i = 0; i < 300; i++) {
      const info = (await api.spaces.getSpaceGitInfo(space.id)).data as GitSyncState & {
        sync?: { lastCommit?: string; state: string };
      };
      if (info.sync?.state === 'in-sync' && info.sync.lastCommit === head) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const synced = (await api.spaces.getPageById(space.id, usage.id, { format: 'markdown' })).data as {
      markdown?: string;
    };
    expect(synced.markdown).toContain('Use it daily.');
    // A delivery replayed (same X-GitHub-Delivery): acknowledged, nothing queued.
    expect((await send(body, hub(body), 'delivery-7')).status).toBe(202);
    const replay = await send(body, hub(body), 'delivery-7');
    expect(replay.status).toBe(202);
    expect(await replay.json()).toEqual({ queued: false, replayed: true });
  }, 120_000);

  it('refuses a loopback remote when private fetches are not allowed, credentials redacted', async () => {
    const boot: Boot = await bootstrap(guarded, 'Acme', 'ann@acme.io');
    const api = guarded.client(boot.token);
    const space = (await api.orgs.createSpace(boot.organization.id, { title: 'Guarded' })).data;
    await api.spaces.importGitRepository(space.id, { url: server.urlOf('handbook', auth), ref: 'refs/heads/main' });
    const info = await settled(api, space.id);
    expect(info.operation).toMatchObject({
      state: 'failure',
      error: expect.stringMatching(/loopback or private address/),
    });
    expect(JSON.stringify(info)).not.toContain(auth.password);
    expect(
      await apiError(api.spaces.importGitRepository(space.id, { url: 'file:///etc', ref: 'refs/heads/main' })),
    ).toMatchObject({ code: 400, message: expect.stringContaining('url') });
  });
});
