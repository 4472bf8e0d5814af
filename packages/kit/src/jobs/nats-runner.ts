import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import type { Pending } from '../metrics.ts';
import {
  checkJobs,
  DEFAULT_JOB_TIMEOUT_MS,
  DEFAULT_MAX_ATTEMPTS,
  DeadLetterSchema,
  errorText,
  JOB_DEDUPE_WINDOW_MS,
  JobMessageSchema,
  retryDelay,
  scheduledRunId,
  untilNextPeriod,
  type DeadLetter,
  type JobDefinition,
  type JobMessage,
  type JobRunner,
} from './job.ts';
import { deadLetterOf, deadLettered, parsePayload, retryAfter, runAttempt } from './run-attempt.ts';

export interface NatsJobRunnerOptions {
  url: string;
  /** The work-queue stream (`QUIRE_JOBS`): it must not share subjects with the event stream. */
  stream: string;
  /** Subject prefix of the stream (`quire_jobs`): runs go to `<prefix>.run.<job>`, dead letters to `<prefix>.dead.<job>`. */
  prefix: string;
  log: Logger;
  name?: string;
}

const ns = (ms: number) => ms * 1_000_000;

/**
 * Distributed mode: a JetStream stream with work-queue retention (a run is removed once acknowledged) and
 * one durable pull consumer per job, shared by every replica, so each run is worked by one replica.
 * Scheduled runs are published by every replica with the id `<job>@<period start>`: JetStream keeps one
 * per period (duplicate window). A failed run is negatively acknowledged with the job's backoff delay;
 * after `maxAttempts` deliveries it is published to `<prefix>.dead.<job>` (kept in the stream for
 * inspection: no consumer takes it) and acknowledged. The server redelivers a run whose worker went silent
 * for `timeoutMs` (a running handler sends "working" heartbeats).
 */
export class NatsJobRunner implements JobRunner {
  readonly kind = 'nats';
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #opts: NatsJobRunnerOptions;
  readonly #jobs: Map<string, JobDefinition<any>>;
  readonly #subs: { messages: ConsumerMessages; done: Promise<void> }[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #stopped = true;

  private constructor(
    nc: NatsConnection,
    jsm: JetStreamManager,
    jobs: Map<string, JobDefinition<any>>,
    opts: NatsJobRunnerOptions,
  ) {
    this.#nc = nc;
    this.#js = jetstream(nc);
    this.#jsm = jsm;
    this.#jobs = jobs;
    this.#opts = opts;
  }

  static async connect(opts: NatsJobRunnerOptions, jobs: readonly JobDefinition<any>[]): Promise<NatsJobRunner> {
    const byName = checkJobs(jobs);
    const nc = await connect({ servers: opts.url, name: opts.name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
    try {
      const jsm = await jetstreamManager(nc);
      const config = {
        name: opts.stream,
        subjects: [`${opts.prefix}.>`],
        retention: RetentionPolicy.Workqueue,
        storage: StorageType.File,
        duplicate_window: ns(JOB_DEDUPE_WINDOW_MS),
        max_age: ns(7 * 24 * 3600 * 1_000),
      };
      try {
        await jsm.streams.info(opts.stream);
      } catch {
        await jsm.streams.add(config);
      }
      return new NatsJobRunner(nc, jsm, byName, opts);
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /** Per job: runs not yet delivered plus those being worked (the job's durable consumer). */
  async pending(): Promise<Pending[]> {
    const out: Pending[] = [];
    for (const def of this.#jobs.values()) {
      const info = await this.#jsm.consumers.info(this.#opts.stream, `job_${def.name}`).catch(() => undefined);
      if (info) out.push({ name: def.name, pending: info.num_pending + info.num_ack_pending });
    }
    return out;
  }

  get streamName(): string {
    return this.#opts.stream;
  }

  async start(): Promise<void> {
    this.#stopped = false;
    for (const def of this.#jobs.values()) {
      const durable = `job_${def.name}`;
      const timeout = def.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
      try {
        await this.#jsm.consumers.info(this.#opts.stream, durable);
      } catch {
        await this.#jsm.consumers.add(this.#opts.stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: `${this.#opts.prefix}.run.${def.name}`,
          ack_wait: ns(timeout),
          // Unlimited on the server: the runner itself dead-letters after maxAttempts (a capped consumer
          // would leave the exhausted run in the work queue forever).
          max_deliver: -1,
          max_ack_pending: 100,
        });
      }
      const consumer = await this.#js.consumers.get(this.#opts.stream, durable);
      const messages = await consumer.consume({ max_messages: 1 });
      const done = (async () => {
        for await (const m of messages) await this.#handle(def, m, timeout);
      })();
      this.#subs.push({ messages, done });
      if (def.everyMs) this.#schedule(def, true);
    }
  }

  async enqueue(job: string, payload: unknown = null, opts: { id?: string } = {}): Promise<string> {
    if (!this.#jobs.has(job)) throw new Error(`unknown job ${job}`);
    const id = opts.id ?? `${job}:${newId(16)}`;
    const msg: JobMessage = { id, job, payload, enqueuedAt: new Date().toISOString() };
    await this.#js.publish(`${this.#opts.prefix}.run.${job}`, JSON.stringify(msg), { msgID: id });
    return id;
  }

  /** The last dead letter of a job, if any (operators and tests). */
  async lastDeadLetter(job: string): Promise<DeadLetter | undefined> {
    const stored = await this.#jsm.streams
      .getMessage(this.#opts.stream, { last_by_subj: `${this.#opts.prefix}.dead.${job}` })
      .catch(() => null);
    return stored ? DeadLetterSchema.parse(stored.json()) : undefined;
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const t of this.#timers) clearTimeout(t);
    for (const s of this.#subs) await s.messages.close();
    for (const s of this.#subs) await s.done;
    await this.#nc.drain();
  }

  /** Test helper: drop the work-queue stream (and its consumers). */
  async deleteStream(): Promise<void> {
    await this.#jsm.streams.delete(this.#opts.stream);
  }

  #schedule(def: JobDefinition<any>, now: boolean): void {
    if (this.#stopped) return;
    const publish = () =>
      this.enqueue(def.name, null, { id: scheduledRunId(def) }).catch((err: unknown) =>
        this.#opts.log.warn({ err, job: def.name }, 'could not schedule job run'),
      );
    if (now) void publish();
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void publish();
      this.#schedule(def, false);
    }, untilNextPeriod(def.everyMs!));
    timer.unref();
    this.#timers.add(timer);
  }

  async #handle(def: JobDefinition<any>, m: JsMsg, timeout: number): Promise<void> {
    const log = this.#opts.log;
    const attempt = m.info.deliveryCount;
    const max = def.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const parsed = JobMessageSchema.safeParse(safeJson(m));
    if (!parsed.success) {
      log.error({ job: def.name, subject: m.subject }, 'malformed job message dead-lettered');
      await this.#deadLetter(
        def,
        { id: `malformed:${m.seq}`, job: def.name, payload: null, enqueuedAt: new Date().toISOString() },
        attempt,
        'malformed job message',
        m,
      );
      return;
    }
    const msg = parsed.data;
    const payload = parsePayload(def, msg);
    if (!payload.ok) return this.#deadLetter(def, msg, attempt, payload.error, m);
    // Redelivered past the limit after timeouts (a worker died while running it): no more tries.
    if (attempt > max)
      return this.#deadLetter(
        def,
        msg,
        attempt - 1,
        'no acknowledgement after the last attempt (worker lost or timed out)',
        m,
      );
    const heartbeat = setInterval(() => m.working(), Math.max(250, Math.floor(timeout / 3)));
    try {
      await runAttempt(def, msg, payload.payload, attempt);
      m.ack();
    } catch (err) {
      if (attempt >= max) return this.#deadLetter(def, msg, attempt, errorText(err), m);
      m.nak(retryAfter(log, def, msg, attempt, err));
    } finally {
      clearInterval(heartbeat);
    }
  }

  async #deadLetter(
    def: JobDefinition<any>,
    msg: JobMessage,
    attempts: number,
    error: string,
    m: JsMsg,
  ): Promise<void> {
    const dead = deadLetterOf(def, msg, attempts, error);
    try {
      await this.#js.publish(`${this.#opts.prefix}.dead.${def.name}`, JSON.stringify(dead), {
        msgID: `dead:${msg.id}:${m.seq}`,
      });
      deadLettered(this.#opts.log, dead);
      m.ack();
    } catch (err) {
      // Could not record it: leave the run to be redelivered rather than lose it.
      this.#opts.log.error({ err, job: def.name, run: msg.id }, 'could not dead-letter a job run');
      m.nak(retryDelay(def, attempts));
    }
  }
}

function safeJson(m: JsMsg): unknown {
  try {
    return m.json();
  } catch {
    return undefined;
  }
}
