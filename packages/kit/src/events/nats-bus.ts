import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type ConsumerMessages,
  type JsMsg,
} from '@nats-io/jetstream';
import { EventEnvelopeSchema, type EventEnvelope } from '@quire/contracts';
import type { Logger } from '../logger.ts';
import { metrics, type Pending } from '../metrics.ts';
import { isDatabaseUnavailable } from '../errors.ts';
import {
  RETRY_BACKOFF_MS,
  type BusMessage,
  type DurableConsumerSpec,
  type EventBus,
  type EventHandler,
  type LiveChannel,
  type Subscription,
} from './bus.ts';

export interface NatsBusOptions {
  url: string;
  /** Stream holding every Quire event (`QUIRE`). */
  stream: string;
  /** Subject prefix (`quire`): events go to `<prefix>.<service>.<entity>.<verb>`. */
  prefix: string;
  log: Logger;
  name?: string;
}

/** JetStream: one stream over `<prefix>.>`, publishes deduplicated by `Nats-Msg-Id`, durable pull consumers. */
export class NatsBus implements EventBus {
  readonly kind = 'nats';
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #opts: NatsBusOptions;
  readonly #subs = new Set<ConsumerMessages>();
  /** Durable consumer name → the consumer spec it serves (metrics). */
  readonly #durables = new Map<string, string>();

  /** False from a lost connection until the client reconnected (it retries for ever). */
  #connected = true;

  private constructor(nc: NatsConnection, js: JetStreamClient, jsm: JetStreamManager, opts: NatsBusOptions) {
    this.#nc = nc;
    this.#js = js;
    this.#jsm = jsm;
    this.#opts = opts;
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') this.#connected = false;
        else if (s.type === 'reconnect') this.#connected = true;
        if (s.type === 'disconnect' || s.type === 'reconnect')
          opts.log.warn(
            { nats: s.type },
            `NATS ${s.type === 'reconnect' ? 'reconnected' : 'connection lost; reconnecting'}`,
          );
      }
    })().catch(() => {});
  }

  /** NATS core subjects `<prefix>_live.>` (outside the stream: never stored), for live fan-out between replicas. */
  readonly live: LiveChannel = {
    publish: (subject, data) => this.#nc.publish(`${this.#opts.prefix}_live.${subject}`, data),
    subscribe: (subject, handler) => {
      const skip = this.#opts.prefix.length + '_live.'.length;
      const sub = this.#nc.subscribe(`${this.#opts.prefix}_live.${subject}`, {
        callback: (err, msg) => {
          if (!err) handler(msg.data, msg.subject.slice(skip));
        },
      });
      return { stop: async () => sub.unsubscribe() };
    },
  };

  get streamName(): string {
    return this.#opts.stream;
  }

  get prefix(): string {
    return this.#opts.prefix;
  }

  static async connect(opts: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({ servers: opts.url, name: opts.name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
    const jsm = await jetstreamManager(nc);
    const config = {
      name: opts.stream,
      subjects: [`${opts.prefix}.>`],
      duplicate_window: 120_000_000_000,
      max_age: 7 * 24 * 3600 * 1_000_000_000,
    };
    try {
      await jsm.streams.info(opts.stream);
      await jsm.streams.update(opts.stream, {
        subjects: config.subjects,
        duplicate_window: config.duplicate_window,
        max_age: config.max_age,
      });
    } catch {
      await jsm.streams.add(config);
    }
    return new NatsBus(nc, jetstream(nc), jsm, opts);
  }

  /** Resolves once JetStream stored the event (its publish acknowledgement). */
  async publish(subject: string, envelope: EventEnvelope): Promise<void> {
    await this.#js.publish(`${this.#opts.prefix}.${subject}`, JSON.stringify(envelope), { msgID: envelope.id });
  }

  /** One after the other: a failure leaves every later event unpublished, so the order holds on the retry. */
  async publishAll(messages: BusMessage[]): Promise<void> {
    for (const m of messages) await this.publish(m.subject, m.envelope);
  }

  /**
   * One durable pull consumer per subject (`filter_subject`; multi-subject filters need NATS 2.10 and the
   * Debian server is 2.9), named `<name>_<subject>`: order holds per event type.
   */
  async consume(spec: DurableConsumerSpec): Promise<Subscription> {
    const subs = await Promise.all(spec.subjects.map((subject) => this.#consumeOne(spec, subject)));
    return { stop: async () => void (await Promise.all(subs.map((s) => s.stop()))) };
  }

  async #consumeOne(spec: DurableConsumerSpec, subject: string): Promise<Subscription> {
    const durable = `${spec.name}_${subject.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const filter = `${this.#opts.prefix}.${subject}`;
    const maxDeliver = spec.maxDeliver ?? 10;
    // No delivery limit on the server: the handler's failures decide (see below), so an outage of the
    // database, however long, never uses an event's deliveries up.
    const info = await this.#jsm.consumers.info(this.#opts.stream, durable).catch(() => undefined);
    if (!info) {
      await this.#jsm.consumers.add(this.#opts.stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: filter,
        ack_wait: 30_000_000_000,
        max_deliver: -1,
        max_ack_pending: 100,
      });
    } else if (info.config.max_deliver !== -1) {
      await this.#jsm.consumers
        .update(this.#opts.stream, durable, { max_deliver: -1 })
        .catch((err: unknown) => this.#opts.log.warn({ err, durable }, 'could not lift max_deliver'));
    }
    this.#durables.set(durable, spec.name);
    const consumer = await this.#js.consumers.get(this.#opts.stream, durable);
    const messages = await consumer.consume({ max_messages: 50 });
    const log = this.#opts.log;
    const prefixLength = this.#opts.prefix.length + 1;
    return this.#track(messages, async (m) => {
      let envelope: EventEnvelope;
      try {
        envelope = EventEnvelopeSchema.parse(m.json());
      } catch (err) {
        log.error({ err, subject: m.subject, consumer: durable }, 'malformed event terminated');
        m.term();
        return;
      }
      try {
        await spec.handler(envelope, m.subject.slice(prefixLength));
        m.ack();
        metrics.consumerHandled.inc({ consumer: spec.name, outcome: 'ok' });
      } catch (err) {
        const attempt = m.info.deliveryCount;
        const away = isDatabaseUnavailable(err);
        const dropped = attempt >= maxDeliver && !away;
        metrics.consumerHandled.inc({ consumer: spec.name, outcome: dropped ? 'dropped' : 'retry' });
        if (dropped) {
          log.error({ err, consumer: durable, event: envelope.id, attempt }, 'event failed on its last delivery');
          m.term();
          return;
        }
        log.warn(
          { err, consumer: durable, event: envelope.id, attempt, databaseAway: away },
          'event handler failed, redelivering',
        );
        m.nak(RETRY_BACKOFF_MS[Math.min(attempt - 1, RETRY_BACKOFF_MS.length - 1)]);
        metrics.consumerRedeliveries.inc({ consumer: spec.name });
      }
    });
  }

  /** Live events from now on, through ordered (ephemeral) consumers, one per subject. */
  async listen(subjects: string[], handler: EventHandler): Promise<Subscription> {
    const prefixLength = this.#opts.prefix.length + 1;
    const subs = await Promise.all(
      subjects.map(async (subject) => {
        const consumer = await this.#js.consumers.get(this.#opts.stream, {
          filter_subjects: `${this.#opts.prefix}.${subject}`,
          deliver_policy: DeliverPolicy.New,
        });
        const messages = await consumer.consume();
        return this.#track(messages, async (m) => {
          const parsed = EventEnvelopeSchema.safeParse(m.json());
          if (parsed.success)
            await handler(parsed.data, m.subject.slice(prefixLength)).catch((err: unknown) =>
              this.#opts.log.warn({ err }, 'listener failed'),
            );
        });
      }),
    );
    return { stop: async () => void (await Promise.all(subs.map((s) => s.stop()))) };
  }

  /** Runs one loop over a consume() iterator (kept once: re-entering `for await` is not allowed). */
  #track(messages: ConsumerMessages, onMessage: (m: JsMsg) => Promise<void>): Subscription {
    this.#subs.add(messages);
    const done = (async () => {
      for await (const m of messages) await onMessage(m);
    })();
    return {
      stop: async () => {
        this.#subs.delete(messages);
        await messages.close();
        await done;
      },
    };
  }

  /** Connected to NATS (while it is away, publishes fail and the outbox keeps the events). */
  healthy(): boolean {
    return this.#connected && !this.#nc.isClosed();
  }

  /** Per consumer: messages not yet delivered plus those delivered and not yet acknowledged (summed over its subjects). */
  async pending(): Promise<Pending[]> {
    const byConsumer = new Map<string, number>();
    for (const [durable, name] of this.#durables) {
      const info = await this.#jsm.consumers.info(this.#opts.stream, durable).catch(() => undefined);
      if (info) byConsumer.set(name, (byConsumer.get(name) ?? 0) + info.num_pending + info.num_ack_pending);
    }
    return [...byConsumer].map(([name, pending]) => ({ name, pending }));
  }

  async close(): Promise<void> {
    for (const s of this.#subs) await s.close();
    await this.#nc.drain();
  }

  /** Test helper: drop the stream (and its consumers). */
  async deleteStream(): Promise<void> {
    await this.#jsm.streams.delete(this.#opts.stream);
  }
}
