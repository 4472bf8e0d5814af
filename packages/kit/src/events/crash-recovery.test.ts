import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEvent } from '@quire/contracts';
import { z } from 'zod';
import { OutboxEvent } from '../db/kit-entities.ts';
import { sql, sqlRun } from '../db/sql.ts';
import { eventually, testLogger, useTestOrm } from '../testing/index.ts';
import type { EventBus } from './bus.ts';
import { idempotentConsumer } from './consumer.ts';
import { InProcessBus } from './in-process-bus.ts';
import { OutboxRelay, recordEvent } from './outbox.ts';

const Pinged = defineEvent('content', 'test.pinged', z.object({ n: z.number() }));
const kit = useTestOrm('crash', 'kit_crash');
const CONSUMER = 'c_crash';

/** Where a process can die between a write's commit and its event applied by the consumer. */
const POINTS = [
  'relay: rows claimed, nothing published',
  'bus: event queued, consumer not run',
  'consumer: applied, not committed',
  'consumer: committed, bus not told',
  'relay: published, row not marked',
] as const;
type Point = (typeof POINTS)[number];

class Crash extends Error {}

/**
 * One run of the standalone event path (bus, idempotent consumer, relay) that dies at the `hit`-th time it
 * reaches `point`: from then on it does nothing more (its bus is closed, every later step throws), as after
 * `kill -9`, and its open transactions roll back. `point` undefined: it never dies.
 */
async function startProcess(crashAt?: { point: Point; hit: number }) {
  const bus = new InProcessBus(testLogger());
  let dead = false;
  const hits = new Map<Point, number>();
  const reach = (point: Point) => {
    if (dead) throw new Crash('dead');
    const n = (hits.get(point) ?? 0) + 1;
    hits.set(point, n);
    if (crashAt?.point === point && crashAt.hit === n) {
      dead = true;
      void bus.close();
      throw new Crash(point);
    }
  };
  const spec = idempotentConsumer(kit.orm, CONSUMER, [Pinged], {
    'test.pinged': async (event, em) => {
      await sqlRun(em, `insert into :schema.applied (event_id, n) values (?, ?)`, [event.id, event.data.n]);
      reach('consumer: applied, not committed');
    },
  });
  await bus.consume({
    ...spec,
    handler: async (envelope, subject) => {
      reach('bus: event queued, consumer not run');
      await spec.handler(envelope, subject);
      reach('consumer: committed, bus not told');
    },
  });
  const crashing: EventBus = Object.assign(Object.create(bus) as EventBus, {
    publishAll: async (messages: Parameters<EventBus['publishAll']>[0]) => {
      reach('relay: rows claimed, nothing published');
      await bus.publishAll(messages);
      reach('relay: published, row not marked');
    },
  });
  const relay = new OutboxRelay(kit.orm, crashing, testLogger(), 20);
  relay.start();
  return { relay, bus, died: () => dead, stop: async () => (await relay.stop(), await bus.close()) };
}

/** Writes `count` events in transactions of `perTx`, concurrently from 4 writers; their numbers. */
async function write(from: number, count: number, perTx = 2): Promise<number[]> {
  const numbers = Array.from({ length: count }, (_, i) => from + i);
  const batches = Array.from({ length: Math.ceil(count / perTx) }, (_, i) => numbers.slice(i * perTx, (i + 1) * perTx));
  const writer = async (mine: number[][]) => {
    for (const batch of mine) {
      await kit.orm.em.fork().transactional(async (em) => {
        for (const n of batch) recordEvent(em, Pinged, { n });
        await em.flush();
      });
      // Spread over time, so the relay runs many times while they write.
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all([0, 1, 2, 3].map((w) => writer(batches.filter((_, i) => i % 4 === w))));
  return numbers;
}

const applied = () =>
  sql<{ n: number; times: number }>(
    kit.orm.em.fork(),
    `select n, count(*)::int as times from :schema.applied group by n order by n`,
  );
const unpublished = () => kit.orm.em.fork().count(OutboxEvent, { publishedAt: null });

describe('the standalone event path killed anywhere', () => {
  beforeAll(async () => {
    await sqlRun(kit.orm.em.fork(), `create table :schema.applied (event_id text not null, n int not null)`);
  });
  afterAll(async () => {
    await sqlRun(kit.orm.em.fork(), `drop table if exists :schema.applied`);
  });

  const cases = POINTS.flatMap((point) => [1, 2].map((hit) => ({ point, hit })));
  it.each(cases)(
    'delivers every committed event exactly once after dying at "$point" (hit $hit)',
    async ({ point, hit }) => {
      await sqlRun(kit.orm.em.fork(), `truncate :schema.applied, :schema.outbox, :schema.processed_event`);
      const first = await startProcess({ point, hit });
      // Writes go on while the process dies: a write acknowledged before or after the kill is committed alike.
      const numbers = await write(1, 24);
      await eventually(async () => first.died() || (await unpublished()) === 0, 10_000, 'the crash or the drain');
      await first.stop();
      expect(first.died(), `the run reached "${point}" ${hit} times`).toBe(true);

      const second = await startProcess();
      try {
        await eventually(async () => (await unpublished()) === 0, 10_000, 'the backlog drained after the restart');
        await eventually(async () => (await applied()).length === numbers.length, 10_000, 'every event applied');
        const rows = await applied();
        expect(rows.map((r) => r.n)).toEqual(numbers);
        expect(rows.filter((r) => r.times !== 1)).toEqual([]);
      } finally {
        await second.stop();
      }
    },
  );

  it('refuses to publish past a durable consumer that is stopped, so its events wait in the outbox', async () => {
    await sqlRun(kit.orm.em.fork(), `truncate :schema.applied, :schema.outbox, :schema.processed_event`);
    const bus = new InProcessBus(testLogger());
    const got: string[] = [];
    const sub = await bus.consume({
      name: 'stopped',
      subjects: ['content.test.*'],
      handler: async (e) => void got.push(e.id),
    });
    await sub.stop();
    const envelope = { id: 'e1', type: 'test.pinged', occurredAt: new Date().toISOString(), data: { n: 1 } };
    await expect(bus.publish(Pinged.subject, envelope)).rejects.toThrow(/stopped is not running/);
    // Consumed again (the next start of the process), the same event goes through.
    await bus.consume({ name: 'stopped', subjects: ['content.test.*'], handler: async (e) => void got.push(e.id) });
    await bus.publish(Pinged.subject, envelope);
    expect(got).toEqual(['e1']);
    await bus.close();
  });
});
