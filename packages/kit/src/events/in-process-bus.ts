import type { EventEnvelope } from '@quire/contracts';
import { isDatabaseUnavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { metrics, type Pending } from '../metrics.ts';
import {
  RETRY_BACKOFF_MS,
  subjectMatches,
  type BusMessage,
  type DurableConsumerSpec,
  type EventBus,
  type EventHandler,
  type Subscription,
} from './bus.ts';

interface Item {
  subject: string;
  envelope: EventEnvelope;
  /** Failures counted towards `maxDeliver` (not those because the database was away). */
  attempts: number;
  /** Every failure (the backoff grows with them). */
  failures: number;
  settle: (err?: Error) => void;
}

interface Queue {
  spec: DurableConsumerSpec;
  items: Item[];
  running: boolean;
  /** No handler runs it now (stopped, or the bus closed): publishes it would take are refused. */
  stopped: boolean;
}

/** How long a delivered event id is remembered to drop a republish (JetStream's duplicate window). */
const DUPLICATE_WINDOW_MS = 120_000;

/**
 * The standalone bus: one process, no broker, so nothing of it survives the process. Its durability is the
 * outbox's: `publish` resolves only once every durable consumer whose subjects match has committed the event
 * (or given up on it after `maxDeliver` failures), and the relay marks the outbox row published only then. A
 * process killed at any point leaves the row unpublished, and the next start delivers it again (consumers
 * are idempotent). A durable consumer that is registered but stopped refuses publishes (the rows wait in
 * the outbox) instead of letting events pass it by. Per consumer: in order, retried with backoff; a failure
 * because the database is away is retried for as long as it lasts and never counts towards `maxDeliver`.
 */
/**
 * A publish refused because a consumer it is meant for is stopped (or the bus closed): expected while a
 * process shuts down; the event stays in the outbox and is delivered once the consumer runs again.
 */
export class ConsumerNotRunning extends Error {
  override name = 'ConsumerNotRunning';
}

export class InProcessBus implements EventBus {
  readonly kind = 'in-process';
  readonly #queues = new Map<string, Queue>();
  readonly #listeners = new Set<{ subjects: string[]; handler: EventHandler }>();
  /** Event id → its delivery (pending or done) and when it was published. */
  readonly #seen = new Map<string, { delivery: Promise<void>; at: number }>();
  readonly #log: Logger;
  #closed = false;

  constructor(log: Logger) {
    this.#log = log;
  }

  async publish(subject: string, envelope: EventEnvelope): Promise<void> {
    return this.#deliver(subject, envelope);
  }

  /** Every event is queued at once, in order; resolves once all of them are delivered. */
  async publishAll(messages: BusMessage[]): Promise<void> {
    await Promise.all(messages.map((m) => this.#deliver(m.subject, m.envelope)));
  }

  /** Queues synchronously (before any await), so events published in a row are handled in that order. */
  #deliver(subject: string, envelope: EventEnvelope): Promise<void> {
    if (this.#closed) return Promise.reject(new ConsumerNotRunning('bus closed'));
    const now = Date.now();
    const seen = this.#seen.get(envelope.id);
    if (seen) return seen.delivery;
    const queues = [...this.#queues.values()].filter((q) => q.spec.subjects.some((p) => subjectMatches(p, subject)));
    const stopped = queues.find((q) => q.stopped);
    if (stopped)
      return Promise.reject(
        new ConsumerNotRunning(`consumer ${stopped.spec.name} is not running: the event stays in the outbox`),
      );
    const delivery = Promise.all(queues.map((q) => this.#enqueue(q, subject, envelope))).then(() => undefined);
    this.#seen.set(envelope.id, { delivery, at: now });
    // A delivery that failed (consumer stopped, bus closed) is forgotten, so the relay's retry delivers again.
    delivery.catch(() => this.#seen.delete(envelope.id));
    if (this.#seen.size > 50_000)
      for (const [id, s] of this.#seen) if (now - s.at > DUPLICATE_WINDOW_MS) this.#seen.delete(id);
    for (const l of this.#listeners) {
      if (l.subjects.some((p) => subjectMatches(p, subject))) {
        l.handler(envelope, subject).catch((err: unknown) => this.#log.warn({ err, subject }, 'listener failed'));
      }
    }
    return delivery;
  }

  #enqueue(q: Queue, subject: string, envelope: EventEnvelope): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      q.items.push({ subject, envelope, attempts: 0, failures: 0, settle: (err) => (err ? reject(err) : resolve()) });
      this.#run(q);
    });
  }

  /** A durable consumer: registered once per name; a stopped one may be consumed again (it is still durable). */
  async consume(spec: DurableConsumerSpec): Promise<Subscription> {
    if (this.#closed) throw new Error('bus closed');
    const existing = this.#queues.get(spec.name);
    if (existing && !existing.stopped) throw new Error(`consumer ${spec.name} already registered`);
    const q: Queue = { spec, items: [], running: false, stopped: false };
    this.#queues.set(spec.name, q);
    return { stop: async () => this.#stop(q, new ConsumerNotRunning(`consumer ${spec.name} stopped`)) };
  }

  async listen(subjects: string[], handler: EventHandler): Promise<Subscription> {
    const l = { subjects, handler };
    this.#listeners.add(l);
    return { stop: async () => void this.#listeners.delete(l) };
  }

  healthy(): boolean {
    return !this.#closed;
  }

  async pending(): Promise<Pending[]> {
    return [...this.#queues.values()].map((q) => ({ name: q.spec.name, pending: q.items.length }));
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const q of this.#queues.values()) this.#stop(q, new Error('bus closed'));
  }

  /** Refuses what the consumer had not committed yet: its publishers keep those events in their outbox. */
  #stop(q: Queue, reason: Error): void {
    q.stopped = true;
    for (const item of q.items.splice(0)) item.settle(reason);
  }

  #run(q: Queue): void {
    if (q.running) return;
    q.running = true;
    void (async () => {
      while (!q.stopped && q.items.length > 0) await this.#handleFirst(q);
      q.running = false;
    })();
  }

  async #handleFirst(q: Queue): Promise<void> {
    const item = q.items[0]!;
    const name = q.spec.name;
    try {
      await q.spec.handler(item.envelope, item.subject);
      if (q.items[0] === item) q.items.shift();
      item.settle();
      metrics.consumerHandled.inc({ consumer: name, outcome: 'ok' });
    } catch (err) {
      if (q.items[0] !== item) return;
      const away = isDatabaseUnavailable(err);
      item.failures++;
      if (!away) item.attempts++;
      const max = q.spec.maxDeliver ?? 10;
      const dropped = item.attempts >= max;
      metrics.consumerHandled.inc({ consumer: name, outcome: dropped ? 'dropped' : 'retry' });
      if (dropped) {
        this.#log.error({ err, consumer: name, event: item.envelope.id }, 'event dropped after max deliveries');
        q.items.shift();
        item.settle();
        return;
      }
      metrics.consumerRedeliveries.inc({ consumer: name });
      this.#log.warn(
        { err, consumer: name, event: item.envelope.id, attempt: item.attempts, databaseAway: away },
        'event handler failed, retrying',
      );
      await new Promise((r) =>
        setTimeout(r, RETRY_BACKOFF_MS[Math.min(item.failures - 1, RETRY_BACKOFF_MS.length - 1)]),
      );
    }
  }
}
