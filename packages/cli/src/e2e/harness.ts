import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import pg from 'pg';
import { beforeAll } from 'vitest';
import { createTestDatabase, TEST_NATS_URL, testLogger, useResource, type TestDatabase } from '@quire/kit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { runCli } from '../cli.ts';
import { startStandalone, type Standalone } from '../standalone.ts';

/** What `quire users add` prints: the member and their API token. */
export interface Seat {
  user: { id: string; email: string };
  token: string;
}

/** What `quire bootstrap` prints: the organization, its first admin and their token. */
export interface Boot extends Seat {
  organization: { id: string };
}

export interface Platform {
  platform: Standalone;
  url: string;
  env: Record<string, string>;
  /** Runs the `quire` CLI against the platform; resolves to its parsed JSON output. */
  cli(args: string[]): Promise<{ code: number; json: any; stderr: string }>;
  client(token: string): GitBookAPI;
  /** `GET /v1<path>` with a bearer token, for what the official client has no method for (or to see the raw answer). */
  get(token: string, path: string): Promise<{ status: number; body: any }>;
  /** Rows of a query on the platform's database (to look behind the API: outbox rows, projections). */
  sql<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** The content service learns members from org-admin's events: waits until it knows these users. */
  awaitMembers(users: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** Runs the `quire` CLI in this process with `env`: its exit code and the lines it printed on each stream. */
export async function runCliCaptured(args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    env,
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

export async function startPlatform(
  opts: { nats?: boolean; transport?: 'in-process' | 'http'; env?: Record<string, string> } = {},
): Promise<Platform> {
  const db: TestDatabase = await createTestDatabase('e2e');
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-e2e-'));
  const id = randomBytes(4).toString('hex');
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    QUIRE_DATA_DIR: dataDir,
    PORT: '0',
    QUIRE_PUBLIC_URL: 'http://quire.test',
    LOG_LEVEL: 'silent',
    // Tests send thousands of requests from 127.0.0.1: the rate limits are tested on their own (rate-limit.e2e.test.ts).
    QUIRE_RATE_LIMIT_PER_MINUTE: '0',
    QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
    QUIRE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0',
    ...(opts.nats ? { NATS_URL: TEST_NATS_URL, NATS_STREAM: `QE_${id}`, NATS_SUBJECT_PREFIX: `qe${id}` } : {}),
    ...opts.env,
  };
  const platform = await startStandalone(env, {
    log: testLogger(),
    ...(opts.transport ? { transport: opts.transport } : {}),
  });
  const cliEnv = { QUIRE_URL: platform.url, QUIRE_DATA_DIR: dataDir };
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end();
    }
  };
  return {
    platform,
    url: platform.url,
    env,
    cli: async (args) => {
      const { code, stdout, stderr } = await runCliCaptured(args, cliEnv);
      return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
    },
    client: (token) => new GitBookAPI({ authToken: token, endpoint: platform.url }),
    get: async (token, path) => {
      const res = await fetch(`${platform.url}/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: await res.json() };
    },
    sql,
    awaitMembers: async (users) => {
      const deadline = Date.now() + 5_000;
      const known = async () =>
        Number(
          (await sql<{ n: string }>('select count(*) as n from content.member where user_id = any($1)', [users]))[0]?.n,
        );
      while ((await known()) < users.length) {
        if (Date.now() > deadline) throw new Error('the content service did not learn the members in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      await platform.stop();
      if (opts.nats) {
        const nc = await connect({ servers: TEST_NATS_URL });
        const jsm = await jetstreamManager(nc);
        // The events stream and the background jobs' work-queue stream.
        for (const stream of [env.NATS_STREAM!, `${env.NATS_STREAM}_JOBS`])
          await jsm.streams.delete(stream).catch(() => {});
        await nc.close();
      }
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A platform for one test file (or `describe` block): started in `beforeAll`, stopped in `afterAll`. The returned
 * handle is usable inside tests and later hooks (its members are filled once started).
 */
export function usePlatform(opts: Parameters<typeof startPlatform>[0] = {}): Platform {
  return useResource(
    () => startPlatform(opts),
    (p) => p.stop(),
  );
}

/** `quire bootstrap`: a new organization, its first admin (named `name`, if given) and their token. */
export async function bootstrap(p: Platform, org: string, email: string, name?: string): Promise<Boot> {
  return succeeded(p, ['bootstrap', '--org', org, '--email', email, ...(name ? ['--name', name] : [])]);
}

/** `quire bootstrap` in `beforeAll`, on a platform of `usePlatform`: the returned handle is filled then. */
export function useBootstrap(p: Platform, org: string, email: string, name?: string): Boot {
  return useResource(() => bootstrap(p, org, email, name));
}

/** `quire users add`: a member of the organization with that role (named `name`, if given), and their token. */
export async function addUser(p: Platform, orgId: string, email: string, role: string, name?: string): Promise<Seat> {
  return succeeded(p, [
    'users',
    'add',
    '--org',
    orgId,
    '--email',
    email,
    '--role',
    role,
    ...(name ? ['--name', name] : []),
  ]);
}

/** The JSON output of a CLI command that must succeed (exit code 0). */
async function succeeded(p: Platform, args: string[]): Promise<any> {
  const { code, json, stderr } = await p.cli(args);
  if (code !== 0) throw new Error(`quire ${args.join(' ')} exited with ${code}: ${stderr}`);
  return json;
}

/**
 * The cast most tests start from: organization Acme bootstrapped by Ann, Rita a `read` member of it, and another
 * organization (Other) whose token must see nothing of Acme.
 */
export async function acmeAndOther(p: Platform): Promise<{ acme: Boot; reader: Seat; other: Boot }> {
  const acme = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
  const reader = await addUser(p, acme.organization.id, 'rita@acme.io', 'read');
  const other = await bootstrap(p, 'Other', 'olga@other.io');
  return { acme, reader, other };
}

/** A new change request of the space (with that subject, if given) holding `changes`, not merged. */
export async function changeRequestWith(api: GitBookAPI, spaceId: string, changes: unknown[], subject?: string) {
  const cr = (await api.spaces.createChangeRequest(spaceId, subject === undefined ? {} : { subject })).data;
  await api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes } as never);
  return cr;
}

/** `changes` written in a new change request of the space (with that subject, if given), merged: the merge's answer. */
export async function mergeChanges(api: GitBookAPI, spaceId: string, changes: unknown[], subject?: string) {
  const cr = await changeRequestWith(api, spaceId, changes, subject);
  return (await api.spaces.mergeChangeRequest(spaceId, cr.id)).data;
}

/**
 * Raw HTTP against the platform with a bearer token (none when null), for exact statuses and bodies and for what the
 * official client does not have or type: `(method, path, body?)` → status, text and parsed JSON.
 */
export function http(p: Platform, token: string | null) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${p.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
  };
}

/** A member to add to Acme: e-mail, role and (optionally) display name. */
export type MemberSpec = readonly [email: string, role: string, name?: string];

/**
 * The cast of a test file (or `describe` block), on a platform of its own (`usePlatform`): Acme bootstrapped by Ann,
 * the `members` added to Acme, and another organization (Other, Olga's) whose token must see nothing of Acme; the
 * content service knows them all before the tests start. The returned handles are filled in `beforeAll`.
 */
export function useCast<const M extends Record<string, MemberSpec>>(
  members: M,
  platformOptions: Parameters<typeof startPlatform>[0] = {},
): { p: Platform; acme: Boot; other: Boot } & { [K in keyof M]: Seat } {
  const p = usePlatform(platformOptions);
  const acme = {} as Boot;
  const other = {} as Boot;
  const seats = Object.fromEntries(Object.keys(members).map((key) => [key, {} as Seat])) as { [K in keyof M]: Seat };
  beforeAll(async () => {
    Object.assign(acme, await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann'));
    for (const [key, [email, role, name]] of Object.entries(members))
      Object.assign(seats[key as keyof M], await addUser(p, acme.organization.id, email, role, name));
    Object.assign(other, await bootstrap(p, 'Other', 'olga@other.io'));
    await p.awaitMembers([acme, ...Object.values<Seat>(seats), other].map((s) => s.user.id));
  });
  return { p, acme, other, ...seats };
}

/** The error a GitBook client call failed with (status and message), or a failure if it succeeded. */
export async function apiError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: number; errorMessage?: string; message: string };
    return { code: e.code ?? 0, message: e.errorMessage ?? e.message };
  }
  throw new Error('expected the call to fail');
}
