import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@quire/kit';
import { run, tempDir, until } from './processes.ts';

/** The newest PostgreSQL server binaries of the machine (Debian's /usr/lib/postgresql/<version>/bin). */
function binDir(): string {
  if (process.env.QUIRE_FAULTS_PG_BIN) return process.env.QUIRE_FAULTS_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl'))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest) throw new Error('no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (set QUIRE_FAULTS_PG_BIN)');
  return join(root, newest, 'bin');
}

/**
 * A PostgreSQL cluster of its own (a temporary directory, a free port, trust on loopback) that a test may
 * crash (`pg_ctl stop -m immediate`: every backend killed, crash recovery at the next start) and start
 * again: never the machine's shared PostgreSQL. As root it runs as `postgres`.
 */
export class PrivatePostgres {
  readonly port: number;
  readonly #dir: { path: string; remove(): void };
  readonly #bin = binDir();

  private constructor(port: number, dir: { path: string; remove(): void }) {
    this.port = port;
    this.#dir = dir;
  }

  static async create(): Promise<PrivatePostgres> {
    const db = new PrivatePostgres(await freePort(), tempDir('pg', true));
    await db.#as(join(db.#bin, 'initdb'), ['-D', db.#data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    await db.start();
    return db;
  }

  get #data(): string {
    return join(this.#dir.path, 'data');
  }

  /** The admin connection string of `database`. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.#dir.path} -c max_connections=200 -c fsync=off -c full_page_writes=off`;
    await this.#as(join(this.#bin, 'pg_ctl'), [
      '-D',
      this.#data,
      '-l',
      join(this.#dir.path, 'log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  }

  /** Kills the server the hard way: no checkpoint, connections cut, recovery from the WAL at the next start. */
  async crash(): Promise<void> {
    await this.#as(join(this.#bin, 'pg_ctl'), ['-D', this.#data, '-m', 'immediate', '-w', 'stop']);
  }

  /** Whether it accepts a connection and answers `select 1`. */
  async answers(): Promise<boolean> {
    const c = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 1_000 });
    try {
      await c.connect();
      await c.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => {});
    }
  }

  async waitUntilAnswering(timeoutMs = 30_000): Promise<void> {
    if (!(await until(() => this.answers(), timeoutMs, 100)))
      throw new Error(`private PostgreSQL on ${this.port} did not answer`);
  }

  /** Rows of a statement on `database`, as the admin. */
  async sql<T>(database: string, text: string, params: unknown[] = []): Promise<T[]> {
    const c = new pg.Client({ connectionString: this.url(database) });
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end();
    }
  }

  async destroy(): Promise<void> {
    await this.#as(join(this.#bin, 'pg_ctl'), ['-D', this.#data, '-m', 'immediate', 'stop']).catch(() => {});
    this.#dir.remove();
  }

  #as(cmd: string, args: string[]) {
    return process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', cmd, ...args]) : run(cmd, args);
  }
}
