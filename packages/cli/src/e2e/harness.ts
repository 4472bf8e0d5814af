import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import pg from 'pg';
import { createTestDatabase, TEST_NATS_URL, testLogger, type TestDatabase } from '@quire/kit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomBytes } from 'node:crypto';
import { runCli } from '../cli.ts';
import { startStandalone, type Standalone } from '../standalone.ts';

/** What `quire bootstrap` prints: the organization, its first admin and their token. */
export interface Boot {
  organization: { id: string };
  user: { id: string };
  token: string;
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
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        args,
        cliEnv,
        (l) => out.push(l),
        (l) => err.push(l),
      );
      return { code, json: out.length ? JSON.parse(out.join('\n')) : undefined, stderr: err.join('\n') };
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
 * The cast most tests start from: organization Acme bootstrapped by Ann, Rita a `read` member of it, and another
 * organization (Other) whose token must see nothing of Acme.
 */
export async function acmeAndOther(
  p: Platform,
): Promise<{ acme: Boot; reader: { user: { id: string }; token: string }; other: Boot }> {
  const acme: Boot = (await p.cli(['bootstrap', '--org', 'Acme', '--email', 'ann@acme.io', '--name', 'Ann'])).json;
  const reader = (
    await p.cli(['users', 'add', '--org', acme.organization.id, '--email', 'rita@acme.io', '--role', 'read'])
  ).json;
  const other: Boot = (await p.cli(['bootstrap', '--org', 'Other', '--email', 'olga@other.io'])).json;
  return { acme, reader, other };
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
