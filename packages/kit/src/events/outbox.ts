import { AsyncLocalStorage } from 'node:async_hooks';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { EventDef, EventEnvelope } from '@quire/contracts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { metrics } from '../metrics.ts';
import { OutboxEvent } from '../db/kit-entities.ts';
import type { EventBus } from './bus.ts';
import { ConsumerNotRunning } from './in-process-bus.ts';

/** The events recorded in each open transaction (keyed by its transaction context), for `eventsRecordedIn`. */
const recorded = new WeakMap<object, EventEnvelope[]>();

/**
 * Queues an event in the caller's unit of work: it is written by the same flush/transaction as the change.
 * Commands call it; procedures never do (the mold's transaction commits it).
 */
export function recordEvent<E extends EventDef>(em: EntityManager, def: E, data: z.input<E['data']>): EventEnvelope {
  const parsed = def.data.parse(data);
  const envelope: EventEnvelope = { id: newId(24), type: def.type, occurredAt: new Date().toISOString(), data: parsed };
  const trx: object | undefined = em.getTransactionContext();
  if (trx) {
    const list = recorded.get(trx);
    if (list) list.push(envelope);
    else recorded.set(trx, [envelope]);
  }
  em.create(OutboxEvent, {
    id: envelope.id,
    subject: def.subject,
    type: def.type,
    payload: envelope as unknown as Record<string, unknown>,
    occurredAt: new Date(envelope.occurredAt),
    attempts: 0,
    publishedAt: null,
  });
  return envelope;
}

/** The events recorded so far in the transaction `em` runs in (none outside a transaction). */
export function eventsRecordedIn(em: EntityManager): EventEnvelope[] {
  const trx: object | undefined = em.getTransactionContext();
  return (trx && recorded.get(trx)) || [];
}

/**
 * Runs a function outside the caller's async context (in the one this module was loaded in: no store of any
 * AsyncLocalStorage). MikroORM marks the code of a flush with one, and `setImmediate` carries it on: a relay woken
 * from a flush hook would hand it to every consumer it runs on the in-process bus, whose own flushes would then be
 * refused as nested ("cannot call em.flush() from inside lifecycle hook handlers") as soon as two overlap.
 */
const outsideCallerContext = AsyncLocalStorage.snapshot();

/**
 * Moves committed outbox rows to the bus, oldest first. Woken right after a flush that wrote events,
 * and by a timer for retries; rows are claimed with `FOR UPDATE SKIP LOCKED`, so several replicas relay
 * without publishing a row twice at once (and the bus deduplicates by event id anyway).
 */
export class OutboxRelay {
  readonly #orm: MikroORM;
  readonly #bus: EventBus;
  readonly #log: Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;
  #failures = 0;
  #dirty = false;

  readonly #service: string;

  constructor(
    orm: MikroORM,
    bus: EventBus,
    log: Logger,
    intervalMs = 1_000,
    service = String(orm.config.get('schema')),
  ) {
    this.#service = service;
    this.#orm = orm;
    this.#bus = bus;
    this.#log = log;
    this.#intervalMs = intervalMs;
    // A flush that wrote events wakes the relay; inside an explicit transaction the rows become visible at
    // commit, so the commit wakes it again. The relay's own transactions run on a fresh event manager.
    orm.em.getEventManager().registerSubscriber({
      afterFlush: (args) => {
        if (args.uow.getChangeSets().some((cs) => cs.meta.className === 'OutboxEvent')) {
          this.#dirty = true;
          setImmediate(() => outsideCallerContext(() => this.kick()));
        }
      },
      afterTransactionCommit: () => {
        if (this.#dirty) setImmediate(() => outsideCallerContext(() => this.kick()));
      },
    });
  }

  start(): void {
    this.#stopped = false;
    this.#schedule();
    this.kick();
  }

  /** Relay now (coalesced with a run in progress). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
      if (this.#again && !this.#stopped) {
        this.#again = false;
        this.kick();
      }
    });
  }

  /** Resolves once nothing is pending (tests, shutdown). */
  async flush(): Promise<void> {
    this.#again = true;
    this.kick();
    while (this.#running) await this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    while (this.#running) await this.#running;
  }

  #schedule(): void {
    if (this.#stopped) return;
    const delay = this.#failures ? Math.min(5_000, this.#intervalMs * 2 ** this.#failures) : this.#intervalMs;
    this.#timer = setTimeout(() => {
      this.kick();
      this.#schedule();
    }, delay);
    this.#timer.unref();
  }

  /**
   * Batches of up to 100 rows, oldest first, each in one transaction: claim them (`FOR UPDATE SKIP LOCKED`),
   * publish them, mark them published, commit. A row is marked only after the bus said it cannot lose it
   * (JetStream stored it; in process: every durable consumer committed it), so a process killed anywhere in
   * between leaves it unpublished and the next run publishes it again; the bus and the consumers drop the
   * duplicate by event id. A failure rolls the batch back and retries with backoff (the database or the bus away).
   */
  async #drain(): Promise<void> {
    this.#dirty = false;
    try {
      for (;;) {
        const n = await this.#orm.em.fork({ freshEventManager: true }).transactional(async (em) => {
          const rows = await em.find(
            OutboxEvent,
            { publishedAt: null },
            { orderBy: { seq: 'asc' }, limit: 100, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
          );
          if (rows.length === 0) return 0;
          await this.#bus.publishAll(
            rows.map((row) => ({ subject: row.subject, envelope: row.payload as unknown as EventEnvelope })),
          );
          const publishedAt = new Date();
          for (const row of rows) row.publishedAt = publishedAt;
          return rows.length;
        });
        if (n) metrics.outboxPublished.inc({ service: this.#service }, n);
        this.#failures = 0;
        if (n < 100) return;
      }
    } catch (err) {
      this.#failures = Math.min(this.#failures + 1, 10);
      if (err instanceof ConsumerNotRunning) this.#log.info(`outbox relay: ${err.message}; will retry`);
      else this.#log.warn({ err }, 'outbox relay failed; will retry');
    }
  }
}
