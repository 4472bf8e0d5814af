import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A free loopback TCP port (asked of the kernel, then released). */
/** A temporary directory (owned by `postgres` when we are root, so a cluster may live in it). */
export function tempDir(label: string, forPostgres = false): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `quire-faults-${label}-`));
  if (forPostgres && process.getuid?.() === 0) chownSync(path, postgresIds().uid, postgresIds().gid);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

let ids: { uid: number; gid: number } | undefined;
/** The system user `postgres` (PostgreSQL refuses to run as root). */
function postgresIds(): { uid: number; gid: number } {
  if (ids) return ids;
  const line = (
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:')) ?? ''
  ).split(':');
  if (line.length < 4) throw new Error('no system user postgres: the fault suite runs PostgreSQL as it');
  return (ids = { uid: Number(line[2]), gid: Number(line[3]) });
}

/** Waits until `check` holds, polling every `everyMs`; false if `timeoutMs` passes first. */
export async function until(check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/**
 * Whether the binaries a fault test runs privately are installed (`initdb`/`pg_ctl`, `nats-server`). Without
 * them the test is skipped, unless CI requires the services it needs (`QUIRE_REQUIRE_NATS=1`): then it fails.
 */
export function privateServersAvailable(): boolean {
  const pg = existsSync('/usr/lib/postgresql') || !!process.env.QUIRE_FAULTS_PG_BIN;
  const nats =
    (process.env.PATH ?? '').split(':').some((d) => existsSync(join(d, 'nats-server'))) ||
    !!process.env.QUIRE_FAULTS_NATS_BIN;
  if (!(pg && nats) && process.env.QUIRE_REQUIRE_NATS === '1')
    throw new Error('the fault tests need PostgreSQL server binaries (/usr/lib/postgresql) and nats-server');
  return pg && nats;
}
