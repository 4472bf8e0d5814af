import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** A depth reported on scrape: a consumer's or a job's pending messages. */
export interface Pending {
  name: string;
  pending: number;
}

/** What a running service reports when scraped (outbox, consumers, jobs, database pool). */
export interface MetricsSource {
  service: string;
  outbox(): Promise<{ backlog: number; oldestAgeSeconds: number }>;
  consumers(): Promise<Pending[]>;
  jobs(): Promise<Pending[]>;
  pool(): { used: number; idle: number; waiting: number } | undefined;
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's Prometheus metrics (one registry whatever the number of services in the process, so
 * standalone mode has one `/metrics` covering all of it; series carry a `service` label where it matters).
 * Counters and histograms are updated where things happen; gauges of state (outbox backlog, consumer lag,
 * job queue depth, database pool) are read from the registered sources when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #sources = new Set<MetricsSource>();
  /** A counter of this registry. */
  readonly #counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers: [this.registry] });

  readonly httpRequests = this.#counter(
    'quire_http_requests_total',
    'Requests answered by the gateway, by operation and status',
    ['operation', 'status'],
  );
  readonly httpDuration = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time to answer a gateway request, by operation and status',
    labelNames: ['operation', 'status'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly httpInFlight = new Gauge({
    name: 'quire_http_requests_in_flight',
    help: 'Gateway requests being answered now',
    registers: [this.registry],
  });
  readonly rpcCalls = this.#counter(
    'quire_rpc_calls_total',
    'Procedure calls served by a service (from the gateway or another service), by procedure and status',
    ['service', 'procedure', 'status'],
  );
  readonly rpcDuration = new Histogram({
    name: 'quire_rpc_duration_seconds',
    help: 'Time a service spends in a procedure call',
    labelNames: ['service', 'procedure', 'status'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly rpcInFlight = new Gauge({
    name: 'quire_rpc_calls_in_flight',
    help: 'Procedure calls a service is running now',
    labelNames: ['service'],
    registers: [this.registry],
  });
  readonly outboxPublished = this.#counter('quire_outbox_published_total', 'Outbox events relayed to the bus', [
    'service',
  ]);
  readonly consumerHandled = this.#counter(
    'quire_consumer_events_total',
    'Events handled by a durable consumer, by outcome (ok, retry, dropped)',
    ['consumer', 'outcome'],
  );
  readonly consumerRedeliveries = this.#counter(
    'quire_consumer_redeliveries_total',
    'Events a durable consumer failed and will get again',
    ['consumer'],
  );
  readonly jobRuns = this.#counter('quire_job_runs_total', 'Background job runs, by outcome (ok, retry, dead)', [
    'job',
    'outcome',
  ]);
  readonly jobLeaseRenewalFailures = this.#counter(
    'quire_job_lease_renewal_failures_total',
    'Lease renewals of a claimed item that failed (the claim may lapse and be worked twice), by job',
    ['job'],
  );
  readonly jobDeadLetters = this.#counter(
    'quire_job_dead_letters_total',
    'Job runs dead-lettered after their last attempt',
    ['job'],
  );

  constructor() {
    registerOutboxGauges(this.registry, this.#sources);
    registerPendingGauges(this.registry, this.#sources);
    registerPoolGauge(this.registry, this.#sources);
    // Process metrics, event-loop lag (`nodejs_eventloop_lag_seconds` and its percentiles) included.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
  }

  /** Adds a service's state to the scrapes; the returned function removes it. */
  addSource(source: MetricsSource): () => void {
    this.#sources.add(source);
    return () => void this.#sources.delete(source);
  }

  /** The Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Each service's outbox backlog and relay lag, asked once for both gauges of a scrape (they are collected concurrently). */
function outboxSnapshots(
  sources: ReadonlySet<MetricsSource>,
): () => Promise<{ service: string; backlog: number; oldestAgeSeconds: number }[]> {
  let snapshot:
    | { at: number; values: Promise<{ service: string; backlog: number; oldestAgeSeconds: number }[]> }
    | undefined;
  return () => {
    if (!snapshot || Date.now() - snapshot.at > 250) {
      snapshot = {
        at: Date.now(),
        values: Promise.all(
          [...sources].map(async (s) => ({
            service: s.service,
            ...(await s.outbox().catch(() => ({ backlog: Number.NaN, oldestAgeSeconds: Number.NaN }))),
          })),
        ),
      };
    }
    return snapshot.values;
  };
}

/** `quire_outbox_backlog` and `quire_outbox_relay_lag_seconds`, by service. */
function registerOutboxGauges(registry: Registry, sources: ReadonlySet<MetricsSource>): void {
  const outbox = outboxSnapshots(sources);
  new Gauge({
    name: 'quire_outbox_backlog',
    help: 'Outbox events not yet relayed to the bus',
    labelNames: ['service'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const o of await outbox()) this.set({ service: o.service }, o.backlog);
    },
  });
  new Gauge({
    name: 'quire_outbox_relay_lag_seconds',
    help: 'Age of the oldest outbox event not yet relayed (0 when none)',
    labelNames: ['service'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const o of await outbox()) this.set({ service: o.service }, o.oldestAgeSeconds);
    },
  });
}

/** `quire_consumer_lag` and `quire_job_queue_depth`: the work waiting for each consumer and job. */
function registerPendingGauges(registry: Registry, sources: ReadonlySet<MetricsSource>): void {
  new Gauge({
    name: 'quire_consumer_lag',
    help: 'Events waiting for (or being handled by) a durable consumer',
    labelNames: ['service', 'consumer'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of sources)
        for (const c of await s.consumers().catch(() => []))
          this.set({ service: s.service, consumer: c.name }, c.pending);
    },
  });
  new Gauge({
    name: 'quire_job_queue_depth',
    help: 'Background job runs waiting (or running)',
    labelNames: ['service', 'job'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of sources)
        for (const j of await s.jobs().catch(() => [])) this.set({ service: s.service, job: j.name }, j.pending);
    },
  });
}

/** `quire_db_pool_connections`, by service and state. */
function registerPoolGauge(registry: Registry, sources: ReadonlySet<MetricsSource>): void {
  new Gauge({
    name: 'quire_db_pool_connections',
    help: 'PostgreSQL pool connections of a service, by state (used, idle, waiting: requests queued for a connection)',
    labelNames: ['service', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of sources) {
        const pool = s.pool();
        if (!pool) continue;
        for (const [state, n] of Object.entries(pool)) this.set({ service: s.service, state }, n);
      }
    },
  });
}

/** The process-wide metrics. */
export const metrics = new Metrics();

/**
 * Counts and times calls into a counter and a histogram of the same labels (`…, status` last), with the leading label
 * values fixed (an operation; a service and its procedure): each status's two children are bound once, since
 * prom-client hashes a labels object on every update otherwise (two hashes and their strings a call).
 */
export function callSeries(
  counter: Counter<string>,
  histogram: Histogram<string>,
  ...values: string[]
): (status: number, seconds: number) => void {
  const bound = new Map<
    number,
    { counter: ReturnType<Counter<string>['labels']>; histogram: ReturnType<Histogram<string>['labels']> }
  >();
  return (status, seconds) => {
    let series = bound.get(status);
    if (!series)
      bound.set(
        status,
        (series = {
          counter: counter.labels(...values, String(status)),
          histogram: histogram.labels(...values, String(status)),
        }),
      );
    series.counter.inc();
    series.histogram.observe(seconds);
  };
}
