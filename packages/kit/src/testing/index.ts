import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import type { ErrorCode } from '@quire/contracts';
import type { DomainError } from '../errors.ts';
import { createLogger, type Logger } from '../logger.ts';
import { NatsBus } from '../events/nats-bus.ts';
import type { JobDefinition } from '../jobs/job.ts';

/** The Postgres and NATS the development machines and CI run (override with the env). */
export const TEST_PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const TEST_SECRET = 'test-internal-secret-0123456789abcdef';
/** The secrets key of test services (never the internal secret: see `secretBoxOf`). */
export const TEST_SECRETS_KEY = 'test-secrets-key-0123456789abcdef0123';

export const testLogger = (): Logger => createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file (dropped afterwards); services migrate their schemas into it. */
export async function createTestDatabase(label = 'quire'): Promise<TestDatabase> {
  const name = `qt_${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
        // The services' own roles in it (db/roles.ts: `<database>_<schema>`), which outlive a database.
        const roles = await c.query<{ rolname: string }>(
          'select rolname from pg_roles where starts_with(rolname, $1)',
          [`${name}_`],
        );
        for (const { rolname } of roles.rows) await c.query(`drop role if exists "${rolname}"`).catch(() => {});
      } finally {
        await c.end();
      }
    },
  };
}

/** Whether NATS answers; with `QUIRE_REQUIRE_NATS=1` (CI) a missing NATS is an error, not a skip. */
export async function natsAvailable(): Promise<boolean> {
  try {
    const nc = await connect({ servers: TEST_NATS_URL, timeout: 1_500, reconnect: false });
    await nc.close();
    return true;
  } catch (err) {
    if (process.env.QUIRE_REQUIRE_NATS === '1')
      throw new Error(`NATS is required (QUIRE_REQUIRE_NATS=1) but ${TEST_NATS_URL} is unreachable: ${String(err)}`);
    return false;
  }
}

/** A JetStream bus on a stream and subject prefix of its own, so test runs never see each other's events. */
export async function createTestNatsBus(log: Logger = testLogger()): Promise<NatsBus & { cleanup(): Promise<void> }> {
  const id = randomBytes(4).toString('hex');
  const bus = await NatsBus.connect({ url: TEST_NATS_URL, stream: `QT_${id}`, prefix: `qt${id}`, log });
  return Object.assign(bus, {
    cleanup: async () => {
      await bus.deleteStream().catch(() => {});
      await bus.close();
    },
  });
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
/** Runs an assertion (`check` throws while it fails) until it passes, or throws its last failure after `timeoutMs`. */
export async function eventuallyPasses(check: () => unknown, timeoutMs = 5_000, intervalMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
export * from './resource.ts';
export * from './service.ts';
export * from './factories.ts';

/** The error a promise rejects with; fails the test when it resolves. */
export async function failureOf<E = import('../errors.ts').DomainError>(p: Promise<unknown>): Promise<E> {
  try {
    await p;
  } catch (err) {
    return err as E;
  }
  throw new Error('expected a failure, but the call succeeded');
}

/** `'ok'` when `f` returns, else the reason of the domain error it throws (a policy's `assert`, a command's check). */
export function outcomeOf(f: () => unknown): 'ok' | ErrorCode {
  try {
    f();
    return 'ok';
  } catch (err) {
    return (err as DomainError).reason;
  }
}

/** `'ok'` when the promise resolves, else the reason of the domain error it rejects with. */
export async function settledOutcomeOf(p: Promise<unknown>): Promise<'ok' | ErrorCode> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as DomainError).reason;
  }
}

/**
 * A job (`flaky`) whose every run fails (`boom <attempt>`), 3 attempts at the most, waiting `backoffMs` between
 * them; `attempts` records each attempt and when it ran.
 */
export function failingJob(backoffMs: number[]) {
  const attempts: { attempt: number; at: number }[] = [];
  const job: JobDefinition<any> = {
    name: 'flaky',
    maxAttempts: 3,
    backoffMs,
    run: async (run) => {
      attempts.push({ attempt: run.attempt, at: Date.now() });
      throw new Error(`boom ${run.attempt}`);
    },
  };
  return { job, attempts };
}

/**
 * Makes each call in turn and expects it to fail with a domain error of `reason` (`forbidden`, `not_found`…): a table
 * of what an actor is refused.
 */
export async function expectReasons(reason: string, calls: (() => Promise<unknown>)[]): Promise<void> {
  for (const [i, call] of calls.entries())
    expect(await reasonOf(call()), `call ${i + 1} of ${calls.length}`).toBe(reason);
}

/** The reason of the domain error a promise rejects with (`forbidden`, `not_found`…); fails the test when it resolves. */
export async function reasonOf(p: Promise<unknown>): Promise<import('../errors.ts').DomainError['reason']> {
  return (await failureOf(p)).reason;
}
export * from './x509.ts';
export * from './web-site.ts';
export * from './pdf.ts';
export * from './png.ts';
export * from './directory-stub.ts';
