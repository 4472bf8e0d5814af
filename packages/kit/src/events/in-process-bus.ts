import type { EventEnvelope } from '@quire/contracts';
import type { Logger } from '../logger.ts';
import { metrics, type Pending } from '../metrics.ts';
import { RETRY_BACKOFF_MS, subjectMatches, type DurableConsumerSpec, type EventBus, type EventHandler, type Subscription } from './bus.ts';

interface Queue {
  spec: DurableConsumerSpec;
  items: { subject: string; envelope: EventEnvelope; attempts: number }[];
  running: boolean;
  stopped: boolean;
}

/**
 * The standalone bus: one process, no broker. Durable consumers get their own queue (processed in
 * order, retried with backoff up to `maxDeliver`), publishes with an already seen id are dropped like
 * JetStream's duplicate window does.
 */
export class InProcessBus implements EventBus {
  readonly kind = 'in-process';
  readonly #queues = new Map<string, Queue>();
  readonly #listeners = new Set<{ subjects: string[]; handler: EventHandler }>();
  readonly #seen = new Map<string, number>();
  readonly #log: Logger;
  #closed = false;

  constructor(log: Logger) {
    this.#log = log;
  }

  async publish(subject: string, envelope: EventEnvelope): Promise<void> {
    if (this.#closed) throw new Error('bus closed');
    const now = Date.now();
    if (this.#seen.has(envelope.id)) return;
    this.#seen.set(envelope.id, now);
    if (this.#seen.size > 50_000) for (const [id, at] of this.#seen) if (now - at > 120_000) this.#seen.delete(id);
    for (const q of this.#queues.values()) {
      if (q.spec.subjects.some((p) => subjectMatches(p, subject))) {
        q.items.push({ subject, envelope, attempts: 0 });
        this.#run(q);
      }
    }
    for (const l of this.#listeners) {
      if (l.subjects.some((p) => subjectMatches(p, subject))) {
        l.handler(envelope, subject).catch((err: unknown) => this.#log.warn({ err, subject }, 'listener failed'));
      }
    }
  }

  async consume(spec: DurableConsumerSpec): Promise<Subscription> {
    if (this.#queues.has(spec.name)) throw new Error(`consumer ${spec.name} already registered`);
    const q: Queue = { spec, items: [], running: false, stopped: false };
    this.#queues.set(spec.name, q);
    return { stop: async () => void ((q.stopped = true), this.#queues.delete(spec.name)) };
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
    for (const q of this.#queues.values()) q.stopped = true;
  }

  #run(q: Queue): void {
    if (q.running) return;
    q.running = true;
    void (async () => {
      while (!q.stopped && q.items.length > 0) {
        const item = q.items[0]!;
        try {
          await q.spec.handler(item.envelope, item.subject);
          q.items.shift();
          metrics.consumerHandled.inc({ consumer: q.spec.name, outcome: 'ok' });
        } catch (err) {
          item.attempts++;
          const max = q.spec.maxDeliver ?? 10;
          metrics.consumerHandled.inc({ consumer: q.spec.name, outcome: item.attempts >= max ? 'dropped' : 'retry' });
          if (item.attempts < max) metrics.consumerRedeliveries.inc({ consumer: q.spec.name });
          if (item.attempts >= max) {
            this.#log.error({ err, consumer: q.spec.name, event: item.envelope.id }, 'event dropped after max deliveries');
            q.items.shift();
          } else {
            this.#log.warn({ err, consumer: q.spec.name, event: item.envelope.id, attempt: item.attempts }, 'event handler failed, retrying');
            await new Promise((r) => setTimeout(r, RETRY_BACKOFF_MS[Math.min(item.attempts - 1, RETRY_BACKOFF_MS.length - 1)]));
          }
        }
      }
      q.running = false;
    })();
  }
}
