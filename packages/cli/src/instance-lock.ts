import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from './client.ts';

/** The file naming the process that runs Quire on a data directory. */
export const instanceLockFile = (dataDir: string) => join(dataDir, 'quire.pid');

export interface InstanceLock {
  /** Removes the file (only while it still names this process). */
  release(): void;
}

/** Whether a process with this id exists (one of another user counts: it answers EPERM). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory for this process: `quire start` twice on the same data would otherwise meet
 * PostgreSQL's "postmaster.pid already exists". A file left by a process that is gone (killed, crashed) is
 * taken over.
 */
export function acquireInstanceLock(dataDir: string, pid = process.pid): InstanceLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = instanceLockFile(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${pid}\n`, { mode: 0o600, flag: 'wx' });
      return {
        release: () => {
          if (holder(file) === pid) rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const running = holder(file);
    if (running !== undefined && running !== pid && alive(running)) {
      throw new CliError(
        `Quire is already running on this data directory (pid ${running}): ${dataDir}. Stop it first, or give this one ` +
          `another QUIRE_DATA_DIR (if no Quire runs, delete ${file}).`,
      );
    }
    rmSync(file, { force: true });
  }
  throw new CliError(`could not take ${file}: another process keeps creating it`);
}
