import { describe, expect, it } from 'vitest';
import { defineEvent } from '@quire/contracts';
import { z } from 'zod';
import { OutboxEvent, ProcessedEvent } from '../db/kit-entities.ts';
import { sql } from '../db/sql.ts';
import { createTestNatsBus, eventually, natsAvailable, testLogger, useTestOrm } from '../testing/index.ts';
import type { EventBus } from './bus.ts';
import { idempotentConsumer } from './consumer.ts';
import { InProcessBus } from './in-process-bus.ts';
import { OutboxRelay, recordEvent } from './outbox.ts';

const Pinged = defineEvent('content', 'test.pinged', z.object({ n: z.number() }));

const kit = useTestOrm('outbox', 'kit_test');

async function publishThroughOutbox(bus: EventBus, consumerName: string) {
  const received: number[] = [];
  const sub = await bus.consume(
    idempotentConsumer(kit.orm, consumerName, [Pinged], {
      'test.pinged': async (event) => void received.push(event.data.n),
    }),
  );
  const relay = new OutboxRelay(kit.orm, bus, testLogger(), 50);
  relay.start();
  return { received, relay, sub };
}

describe.each([
  ['in-process', async () => new InProcessBus(testLogger()) as EventBus & { cleanup?: () => Promise<void> }],
  ['nats', async () => ((await natsAvailable()) ? await createTestNatsBus() : null)],
] as const)('outbox → %s bus → idempotent consumer', (_kind, makeBus) => {
  it('publishes committed events once, never rolled-back ones, and dedupes redeliveries', async (t) => {
    const bus = await makeBus();
    if (!bus) return t.skip();
    const name = `c_${_kind.replace('-', '_')}`;
    const { received, relay, sub } = await publishThroughOutbox(bus, name);
    try {
      const em = kit.orm.em.fork();
      recordEvent(em, Pinged, { n: 1 });
      await em.flush();
      await expect(
        kit.orm.em.fork().transactional(async (tem) => {
          recordEvent(tem, Pinged, { n: 99 });
          await tem.flush();
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const env = await kit.orm.em.fork().transactional(async (tem) => {
        const e = recordEvent(tem, Pinged, { n: 2 });
        await tem.flush();
        return e;
      });
      await eventually(async () => received.length >= 2, 5_000, 'two events');
      // Publishing the same envelope again (a relay retry) is not applied twice.
      await bus.publish(Pinged.subject, { ...env, id: env.id });
      // The relay marks an event published after the bus took it: a consumer can see it first.
      const row = await eventually(
        async () => {
          const r = await kit.orm.em.fork().findOneOrFail(OutboxEvent, { id: env.id });
          return r.publishedAt ? r : undefined;
        },
        5_000,
        'the event marked published',
      );
      expect(row.publishedAt).toBeInstanceOf(Date);
      await new Promise((r) => setTimeout(r, 300));
      expect(received.sort()).toEqual([1, 2]);
      expect(await kit.orm.em.fork().count(ProcessedEvent, { consumer: name })).toBe(2);
      expect(await kit.orm.em.fork().count(OutboxEvent, { publishedAt: null })).toBe(0);
    } finally {
      await relay.stop();
      await sub.stop();
      await ('cleanup' in bus && bus.cleanup ? bus.cleanup() : bus.close());
    }
  });
});

describe('idempotentConsumer', () => {
  it('applies a redelivered event once and rejects a payload that breaks the contract', async () => {
    let applied = 0;
    const spec = idempotentConsumer(kit.orm, 'c_direct', [Pinged], { 'test.pinged': async () => void applied++ });
    const envelope = { id: 'evt-1', type: 'test.pinged', occurredAt: new Date().toISOString(), data: { n: 1 } };
    await spec.handler(envelope, Pinged.subject);
    await spec.handler(envelope, Pinged.subject);
    expect(applied).toBe(1);
    await expect(spec.handler({ ...envelope, id: 'evt-2', data: { n: 'one' } }, Pinged.subject)).rejects.toThrow();
    expect(applied).toBe(1);
  });

  it('does not record the event when the handler fails, so a redelivery retries it', async () => {
    let calls = 0;
    const spec = idempotentConsumer(kit.orm, 'c_fail', [Pinged], {
      'test.pinged': async () => {
        calls++;
        if (calls === 1) throw new Error('transient');
      },
    });
    const envelope = { id: 'evt-3', type: 'test.pinged', occurredAt: new Date().toISOString(), data: { n: 3 } };
    await expect(spec.handler(envelope, Pinged.subject)).rejects.toThrow('transient');
    await spec.handler(envelope, Pinged.subject);
    expect(calls).toBe(2);
    expect(await kit.orm.em.fork().count(ProcessedEvent, { consumer: 'c_fail' })).toBe(1);
  });
});

describe('outbox relay woken by a flush', () => {
  it('runs in-process consumers outside the flush, so their own transactions may read concurrently', async () => {
    const bus = new InProcessBus(testLogger());
    const reads: number[] = [];
    const sub = await bus.consume(
      idempotentConsumer(kit.orm, 'c_reads', [Pinged], {
        // Reads in a transaction flush its unit of work first: two at once must not look like a flush inside a flush.
        'test.pinged': async (event, em) => {
          const counts = await Promise.all(
            [1, 2].map(() =>
              sql<{ n: number }>(
                em,
                `select count(*)::int as n from :schema.processed_event where consumer = 'c_reads'`,
              ),
            ),
          );
          reads.push(event.data.n, ...counts.map((rows) => rows[0]!.n));
        },
      }),
    );
    const relay = new OutboxRelay(kit.orm, bus, testLogger(), 60_000);
    relay.start();
    // Idle: the next run is the one the flush below wakes.
    await relay.flush();
    try {
      const em = kit.orm.em.fork();
      recordEvent(em, Pinged, { n: 5 });
      await em.flush();
      await eventually(async () => reads.length === 3, 5_000, 'the consumer to read');
      expect(reads).toEqual([5, 1, 1]);
    } finally {
      await relay.stop();
      await sub.stop();
      await bus.close();
    }
  });
});

describe('outbox relay while the bus is down', () => {
  it('keeps the events and delivers them once the bus is back', async () => {
    let up = false;
    const inner = new InProcessBus(testLogger());
    const flaky: EventBus = {
      kind: 'in-process',
      publish: async (s, e) => {
        if (!up) throw new Error('bus down');
        return inner.publish(s, e);
      },
      publishAll: async (messages) => {
        if (!up) throw new Error('bus down');
        return inner.publishAll(messages);
      },
      consume: (spec) => inner.consume(spec),
      listen: (s, h) => inner.listen(s, h),
      healthy: () => up,
      pending: () => inner.pending(),
      close: () => inner.close(),
    };
    const { received, relay, sub } = await publishThroughOutbox(flaky, 'c_flaky');
    const em = kit.orm.em.fork();
    recordEvent(em, Pinged, { n: 7 });
    await em.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toEqual([]);
    up = true;
    await eventually(async () => received.length === 1, 10_000, 'delivery after recovery');
    expect(received).toEqual([7]);
    await relay.stop();
    await sub.stop();
  });
});
