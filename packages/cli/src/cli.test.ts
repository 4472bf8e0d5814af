import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@quire/contracts';
import { createTestDatabase, type TestDatabase } from '@quire/kit/testing';
import { COMMAND_USAGE, USAGE } from './cli.ts';
import { freePort } from '@quire/kit';
import { recordInstanceUrl } from './instance-url.ts';
import { runCliCaptured, startPlatform, type Platform } from './e2e/harness.ts';

/** A port nothing listens on (discard): connecting to it is refused at once. */
const CLOSED_URL = 'http://127.0.0.1:9';

const run = (argv: string[], env: Record<string, string | undefined> = {}) => runCliCaptured(argv, env);

const json = (stdout: string) => JSON.parse(stdout);

describe('quire CLI: usage and argument checks', () => {
  // An instance that cannot be reached: argument errors must be reported before any request is made.
  const env = { QUIRE_URL: CLOSED_URL, QUIRE_ADMIN_TOKEN: 'quire_admin_unused' };

  it('prints the usage with `help` and exits 0', async () => {
    const res = await run(['help'], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(USAGE);
    expect(res.stdout).toContain('Usage: quire <command> [options]');
    for (const command of ['start', 'bootstrap', 'users add', 'migrate']) expect(res.stdout).toContain(command);
    expect(res.stderr).toBe('');
  });

  it('prints the usage with --help and -h and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const res = await run([flag], env);
      expect(res.code).toBe(0);
      expect(res.stdout).toBe(USAGE);
    }
  });

  it('prints each command’s own usage with --help, -h or `help <command>`', async () => {
    const cases: [string[], string][] = [
      [['start', '--help'], 'start'],
      [['bootstrap', '-h'], 'bootstrap'],
      [['users', 'add', '--help'], 'users'],
      [['users', '--help'], 'users'],
      [['migrate', '--help'], 'migrate'],
      [['help', 'bootstrap'], 'bootstrap'],
    ];
    for (const [argv, command] of cases) {
      const res = await run(argv, env);
      expect(res.code, argv.join(' ')).toBe(0);
      expect(res.stdout).toBe(COMMAND_USAGE[command]);
      expect(res.stdout).not.toBe(USAGE);
      expect(res.stdout).toMatch(new RegExp(`^Usage: quire ${command}`));
      expect(res.stderr).toBe('');
    }
    expect((await run(['bootstrap', '--help'], env)).stdout).toContain('--org <title>');
    expect((await run(['users', 'add', '--help'], env)).stdout).toContain('--role <role>');
    expect((await run(['start', '--help'], env)).stdout).toContain('QUIRE_DATA_DIR');
    // `--help` shows the usage and nothing else: no request is made, no platform started.
    expect((await run(['bootstrap', '--org', 'Acme', '--help'], env)).stdout).toBe(COMMAND_USAGE.bootstrap);
  });

  it('refuses `help` of an unknown command', async () => {
    const res = await run(['help', 'frobnicate'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('unknown command: frobnicate');
  });

  it('prints the usage without a command and exits 1', async () => {
    const res = await run([], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe(USAGE);
  });

  it('rejects an unknown command with the usage and exit 1', async () => {
    const res = await run(['frobnicate'], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('quire: unknown command: frobnicate');
    expect(res.stderr).toContain(USAGE);
  });

  it('rejects `users` without a known subcommand', async () => {
    const res = await run(['users', 'remove', '--org', 'o', '--email', 'a@b.c', '--role', 'read'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('unknown command: users remove');
  });

  it('asks for --email when bootstrap has none', async () => {
    const res = await run(['bootstrap', '--org', 'Acme'], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^quire: missing --email/);
    expect(res.stderr).not.toContain('not reachable');
  });

  it('asks for --org when bootstrap has none', async () => {
    const res = await run(['bootstrap', '--email', 'jane@acme.io'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^quire: missing --org/);
  });

  it('rejects an invalid --role of `users add`, listing the valid ones', async () => {
    const res = await run(['users', 'add', '--org', 'org1', '--email', 'bob@acme.io', '--role', 'owner'], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('--role must be one of');
    for (const role of [...ROLES, 'guest']) expect(res.stderr).toContain(role);
    expect(res.stderr).toContain('"owner"');
    expect(res.stderr).not.toContain('not reachable');
  });

  it('asks for --role when `users add` has none', async () => {
    const res = await run(['users', 'add', '--org', 'org1', '--email', 'bob@acme.io'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^quire: missing --role/);
  });
});

describe('quire CLI: reaching the instance', () => {
  let emptyDataDir: string;
  let p: Platform;

  beforeAll(async () => {
    emptyDataDir = mkdtempSync(join(tmpdir(), 'quire-cli-empty-'));
    p = await startPlatform();
  });
  afterAll(async () => {
    await p?.stop();
    rmSync(emptyDataDir, { recursive: true, force: true });
  });

  it('says Quire is not reachable at QUIRE_URL (port 9)', async () => {
    // fetch refuses port 9 outright (a "bad port" in the Fetch standard) rather than connecting.
    const res = await run(['bootstrap', '--org', 'Acme', '--email', 'jane@acme.io'], {
      QUIRE_URL: CLOSED_URL,
      QUIRE_ADMIN_TOKEN: 'quire_admin_x',
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^quire: Quire is not reachable at http:\/\/127\.0\.0\.1:9 /);
    expect(res.stderr).toContain('set QUIRE_URL');
  });

  it('says Quire is not reachable when the connection is refused', async () => {
    const url = `http://127.0.0.1:${await freePort()}/`;
    const res = await run(['users', 'add', '--org', 'o', '--email', 'a@acme.io', '--role', 'read'], {
      QUIRE_URL: url,
      QUIRE_ADMIN_TOKEN: 'quire_admin_x',
    });
    expect(res.code).toBe(1);
    // The trailing slash of QUIRE_URL is dropped.
    expect(res.stderr).toBe(
      `quire: Quire is not reachable at ${url.slice(0, -1)} (ECONNREFUSED; URL from QUIRE_URL). Start it with \`npm start\`, or set QUIRE_URL.`,
    );
  });

  it('talks to the instance its data directory records without QUIRE_URL, and names the file when it is gone', async () => {
    const dir = p.env.QUIRE_DATA_DIR!;
    const recorded = recordInstanceUrl(dir, p.url);
    try {
      const res = await run(['bootstrap', '--org', 'Recorded', '--email', 'rec@acme.io'], { QUIRE_DATA_DIR: dir });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(json(res.stdout).organization.title).toBe('Recorded');
    } finally {
      recorded.remove();
    }
    const url = `http://127.0.0.1:${await freePort()}`;
    recordInstanceUrl(dir, url);
    try {
      const gone = await run(['bootstrap', '--org', 'Recorded', '--email', 'rec@acme.io'], { QUIRE_DATA_DIR: dir });
      expect(gone.code).toBe(1);
      expect(gone.stderr).toBe(
        `quire: Quire is not reachable at ${url} (ECONNREFUSED; URL from ${join(dir, 'quire.url')}). Start it with \`npm start\`, or set QUIRE_URL.`,
      );
    } finally {
      rmSync(join(dir, 'quire.url'), { force: true });
    }
  });

  it('explains how to get an admin token when there is none', async () => {
    const res = await run(['bootstrap', '--org', 'Acme', '--email', 'jane@acme.io'], {
      QUIRE_URL: p.url,
      QUIRE_DATA_DIR: emptyDataDir,
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('No instance admin token');
    expect(res.stderr).toContain('QUIRE_ADMIN_TOKEN');
    expect(res.stderr).toContain('quire start');
    expect(res.stderr).toContain(join(emptyDataDir, 'admin-token'));
  });

  it('says the instance admin token was refused, and where it came from, for a wrong admin token', async () => {
    const res = await run(['bootstrap', '--org', 'Acme', '--email', 'jane@acme.io'], {
      QUIRE_URL: p.url,
      QUIRE_ADMIN_TOKEN: 'quire_admin_wrong',
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      new RegExp(
        `^quire: The instance admin token was refused by ${p.url.replace(/[.]/g, '\\.')}: the token in QUIRE_ADMIN_TOKEN is not`,
      ),
    );
    expect(res.stderr).toContain('HTTP 401');
    expect(res.stderr).not.toMatch(/API token \(HTTP 401\)$/);

    const dir = mkdtempSync(join(tmpdir(), 'quire-cli-wrong-'));
    try {
      writeFileSync(join(dir, 'admin-token'), 'quire_admin_stale\n');
      const fromFile = await run(['users', 'add', '--org', 'o', '--email', 'a@acme.io', '--role', 'read'], {
        QUIRE_URL: p.url,
        QUIRE_DATA_DIR: dir,
      });
      expect(fromFile.code).toBe(1);
      expect(fromFile.stderr).toContain(
        `The instance admin token was refused by ${p.url}: the token in ${join(dir, 'admin-token')}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a user token where the instance admin token is needed', async () => {
    const boot = await p.cli(['bootstrap', '--org', 'Token Org', '--email', 'tess@acme.io']);
    expect(boot.code).toBe(0);
    const res = await run(['bootstrap', '--org', 'Sneaky', '--email', 'eve@acme.io'], {
      QUIRE_URL: p.url,
      QUIRE_ADMIN_TOKEN: boot.json.token,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('HTTP 403');
    expect(res.stderr).toContain('The token in QUIRE_ADMIN_TOKEN is not the instance admin token');
  });

  it('reads the admin token from QUIRE_DATA_DIR and adds a guest with --role guest', async () => {
    const boot = await p.cli(['bootstrap', '--org', 'Guest Org', '--email', 'owner@acme.io', '--name', 'Olive Owner']);
    expect(boot.code).toBe(0);
    expect(boot.stderr).toBe('');
    const orgId: string = boot.json.organization.id;

    const res = await run(
      ['users', 'add', '--org', orgId, '--email', 'guest@acme.io', '--name', 'Gus Guest', '--role', 'guest'],
      {
        QUIRE_URL: p.url,
        QUIRE_DATA_DIR: p.env.QUIRE_DATA_DIR,
      },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const added = json(res.stdout);
    expect(added.user).toMatchObject({ object: 'user', email: 'guest@acme.io', displayName: 'Gus Guest' });
    expect(typeof added.token).toBe('string');
    expect(added.token.length).toBeGreaterThan(10);

    const api = p.client(added.token);
    const me = await api.user.getAuthenticatedUser();
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ id: added.user.id, email: 'guest@acme.io' });
    // A guest (role null) sees the organization but, unlike a `read` member, cannot list its members.
    const org = await api.orgs.getOrganizationById(orgId);
    expect(org.data.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: false });

    const reader = await run(['users', 'add', '--org', orgId, '--email', 'reader@acme.io', '--role', 'read'], {
      QUIRE_URL: p.url,
      QUIRE_DATA_DIR: p.env.QUIRE_DATA_DIR,
    });
    expect(reader.code).toBe(0);
    const asReader = await p.client(json(reader.stdout).token).orgs.getOrganizationById(orgId);
    expect(asReader.data.permissions).toMatchObject({ view: true, admin: false, listMembers: true });
  });

  it('reports an unknown organization for `users add`', async () => {
    const res = await run(['users', 'add', '--org', 'no-such-org', '--email', 'x@acme.io', '--role', 'read'], {
      QUIRE_URL: p.url,
      QUIRE_DATA_DIR: p.env.QUIRE_DATA_DIR,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/\(HTTP 404\)$/);
  });
});

describe('quire migrate', () => {
  let db: TestDatabase | undefined;

  afterAll(async () => {
    await db?.drop();
  });

  it('needs DATABASE_URL', async () => {
    const res = await run(['migrate'], {});
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('DATABASE_URL');
  });

  it('applies every service’s migrations once', async () => {
    db = await createTestDatabase('climigrate');
    const first = await run(['migrate'], { DATABASE_URL: db.url });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const { applied } = json(first.stdout) as { applied: Record<string, string[]> };
    expect(Object.keys(applied).sort()).toEqual(['content', 'integrations', 'org-admin', 'sites']);
    for (const [service, names] of Object.entries(applied)) {
      expect(names.length, `${service} applied migrations`).toBeGreaterThan(0);
      for (const name of names) expect(typeof name).toBe('string');
    }

    const second = await run(['migrate'], { DATABASE_URL: db.url });
    expect(second.code).toBe(0);
    expect(json(second.stdout)).toEqual({ applied: { 'org-admin': [], content: [], sites: [], integrations: [] } });
  });
});

describe('unknown options', () => {
  it('exit 1 with the usage instead of throwing', async () => {
    const { code, stderr } = await run(['bootstrap', '--bogus', 'x']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/Unknown option '--bogus'[\s\S]*Usage: quire/);
  });
});
