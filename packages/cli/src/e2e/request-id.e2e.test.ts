import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quire/kit/testing';
import { runCliCaptured } from './harness.ts';
import { startStandalone, type Standalone } from '../standalone.ts';

/** Every JSON log line the platform writes, kept in memory. */
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
    done();
  },
});

let db: TestDatabase;
let platform: Standalone;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase('reqid');
  dataDir = mkdtempSync(join(tmpdir(), 'quire-reqid-'));
  platform = await startStandalone(
    { DATABASE_URL: db.url, QUIRE_DATA_DIR: dataDir, PORT: '0', QUIRE_PUBLIC_URL: 'http://quire.test' },
    { log: pino({ level: 'debug' }, sink) },
  );
});
afterAll(async () => {
  await platform?.stop();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('request ids', () => {
  it('carry from the gateway into the owning service’s log lines', async () => {
    const { stdout } = await runCliCaptured(['bootstrap', '--org', 'Trace Co', '--email', 'tess@trace.io'], {
      QUIRE_URL: platform.url,
      QUIRE_DATA_DIR: dataDir,
    });
    const { token } = JSON.parse(stdout) as { token: string };
    const res = await fetch(`${platform.url}/v1/spaces/nope`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-4242' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('trace-4242');
    const contentLine = lines.find((l) => l.reqId === 'trace-4242' && l.service === 'content');
    expect(contentLine).toMatchObject({ msg: 'rpc', path: 'spaces.get', status: 404 });
  });

  it('keeps a chosen id only in a safe form, else answers under a new one', async () => {
    for (const unsafe of ['<script>alert(1)</script>', 'a b', 'x'.repeat(129)]) {
      const res = await fetch(`${platform.url}/healthz`, { headers: { 'x-request-id': unsafe } });
      const id = res.headers.get('x-request-id');
      expect(id).not.toBe(unsafe);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const kept = await fetch(`${platform.url}/healthz`, { headers: { 'x-request-id': 'ci-run_42.7' } });
    expect(kept.headers.get('x-request-id')).toBe('ci-run_42.7');
  });
});
