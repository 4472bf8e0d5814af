import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEvent } from '@quire/contracts';
import { z } from 'zod';
import { OutboxEvent } from '../db/kit-entities.ts';
import { freePort } from '../net/free-port.ts';
import { eventually, testLogger, useTestOrm } from '../testing/index.ts';
import { idempotentConsumer } from './consumer.ts';
import { NatsBus } from './nats-bus.ts';
import { OutboxRelay, recordEvent } from './outbox.ts';

const Pinged = defineEvent('content', 'test.pinged', z.object({ n: z.number() }));
const kit = useTestOrm('natsout', 'kit_natsout');
const NATS_BIN = process.env.QUIRE_NATS_SERVER_BIN ?? 'nats-server';
const hasNatsServer = spawnSync(NATS_BIN, ['--version']).status === 0;

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = tcpConnect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** A JetStream server of this test's own (a free port, a temporary store kept across restarts): never the shared one. */
class PrivateNats {
  readonly dir = mkdtempSync(join(tmpdir(), 'quire-kit-nats-'));
  readonly port: number;
  child: ChildProcess | undefined;
  constructor(port: number) {
    this.port = port;
  }
  get url() {
    return `nats://127.0.0.1:${this.port}`;
  }
  async start() {
    this.child = spawn(NATS_BIN, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.dir], {
      stdio: 'ignore',
    });
    await eventually(() => listening(this.port), 10_000, 'the private NATS to listen');
  }
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

describe.skipIf(!hasNatsServer)('outbox → JetStream across a NATS outage', () => {
  let nats: PrivateNats;
  beforeAll(async () => {
    nats = new PrivateNats(await freePort());
    await nats.start();
  });
  afterAll(async () => {
    await nats?.stop();
    if (nats) rmSync(nats.dir, { recursive: true, force: true });
  });

  it('keeps the events in the outbox while NATS is away; the relay and the consumer reconnect by themselves, each event applied once', {
    timeout: 60_000,
  }, async () => {
    const bus = await NatsBus.connect({ url: nats.url, stream: 'QO', prefix: 'qo', log: testLogger() });
    const applied: number[] = [];
    const sub = await bus.consume(
      idempotentConsumer(kit.orm, 'c_outage', [Pinged], { 'test.pinged': async (e) => void applied.push(e.data.n) }),
    );
    const relay = new OutboxRelay(kit.orm, bus, testLogger(), 50);
    relay.start();
    const write = async (ns: number[]) => {
      const em = kit.orm.em.fork();
      for (const n of ns) recordEvent(em, Pinged, { n });
      await em.flush();
    };
    const backlog = () => kit.orm.em.fork().count(OutboxEvent, { publishedAt: null });
    try {
      await write([1, 2, 3]);
      await eventually(async () => applied.length === 3, 10_000, 'the events before the outage');

      await nats.stop();
      await eventually(async () => !bus.healthy(), 10_000, 'the bus to notice');
      await write([4, 5, 6]);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await backlog()).toBe(3);
      expect(applied).toEqual([1, 2, 3]);

      await nats.start();
      await eventually(async () => bus.healthy(), 15_000, 'the reconnection');
      await eventually(async () => (await backlog()) === 0, 15_000, 'the backlog to drain');
      await eventually(async () => applied.length >= 6, 15_000, 'the events of the outage');
      await new Promise((r) => setTimeout(r, 300));
      expect([...applied].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await relay.stop();
      await sub.stop();
      await bus.close().catch(() => {});
    }
  });
});
