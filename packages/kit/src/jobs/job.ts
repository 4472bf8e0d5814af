import { z } from 'zod';
import type { Pending } from '../metrics.ts';

/** One execution of a job, as its handler sees it. */
export interface JobRun<P = unknown> {
  /** Id of the run (deduplicates enqueues): `<job>@<period start>` for scheduled runs. */
  id: string;
  job: string;
  payload: P;
  /** 1 on the first try, then 2, 3… on retries. */
  attempt: number;
  enqueuedAt: string;
}

/**
 * A background job: run on a schedule (`everyMs`) and/or on demand (`enqueue`). Runs are at least once:
 * a handler must be idempotent. A failed run is retried after `backoffMs[attempt - 1]` (the last delay
 * repeats), and after `maxAttempts` failures it goes to the dead letters with its last error.
 */
export interface JobDefinition<P = unknown> {
  /** Unique in the deployment: lowercase letters, digits and dashes (`content-purge-spaces`). */
  name: string;
  run(run: JobRun<P>): Promise<void>;
  /** Validates the payload of each run (a run whose payload fails goes straight to the dead letters). */
  payload?: z.ZodType<P>;
  /** One run per period, the first when the runner starts. */
  everyMs?: number;
  maxAttempts?: number;
  backoffMs?: readonly number[];
  /** A run silent for longer is presumed lost and redelivered (JetStream ack wait); a running handler is kept alive. */
  timeoutMs?: number;
}

/** A run that failed `maxAttempts` times (or whose payload is invalid). */
export interface DeadLetter {
  id: string;
  job: string;
  payload: unknown;
  attempts: number;
  error: string;
  failedAt: string;
}

export interface JobRunner {
  readonly kind: 'nats' | 'timer';
  /** Subscribes the workers and starts the schedules. */
  start(): Promise<void>;
  /** Queues a run now; resolves to its id. An id seen recently (2 minutes) is not queued twice. */
  enqueue(job: string, payload?: unknown, opts?: { id?: string }): Promise<string>;
  /** Runs waiting (or running) per job (metrics). */
  pending(): Promise<Pending[]>;
  stop(): Promise<void>;
}

export const JOB_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = [1_000, 5_000, 30_000, 120_000] as const;
export const DEFAULT_JOB_TIMEOUT_MS = 60_000;
/** How long an enqueued id is remembered for deduplication (JetStream's duplicate window). */
export const JOB_DEDUPE_WINDOW_MS = 120_000;

/** What travels on the work queue. */
export const JobMessageSchema = z.object({
  id: z.string().min(1),
  job: z.string(),
  payload: z.unknown(),
  enqueuedAt: z.iso.datetime(),
});
export type JobMessage = z.infer<typeof JobMessageSchema>;

export const DeadLetterSchema = z.object({
  id: z.string(),
  job: z.string(),
  payload: z.unknown(),
  attempts: z.number().int(),
  error: z.string(),
  failedAt: z.iso.datetime(),
});

export function retryDelay(def: JobDefinition<any>, attempt: number): number {
  const backoff = def.backoffMs ?? DEFAULT_BACKOFF_MS;
  return backoff.length ? backoff[Math.min(attempt - 1, backoff.length - 1)]! : 0;
}

/** The id of a scheduled run: one per period, the same on every replica (so the queue keeps one). */
export function scheduledRunId(def: JobDefinition<any>, now = Date.now()): string {
  return `${def.name}@${Math.floor(now / def.everyMs!) * def.everyMs!}`;
}

/** Milliseconds until the next period of a scheduled job starts. */
export function untilNextPeriod(everyMs: number, now = Date.now()): number {
  return everyMs - (now % everyMs);
}

export function checkJobs(jobs: readonly JobDefinition<any>[]): Map<string, JobDefinition<any>> {
  const byName = new Map<string, JobDefinition<any>>();
  for (const job of jobs) {
    if (!JOB_NAME.test(job.name))
      throw new Error(`job name ${JSON.stringify(job.name)}: lowercase letters, digits and dashes`);
    if (byName.has(job.name)) throw new Error(`job ${job.name} defined twice`);
    if (job.everyMs !== undefined && !(job.everyMs >= 10))
      throw new Error(`job ${job.name}: everyMs must be at least 10`);
    byName.set(job.name, job);
  }
  return byName;
}

export const errorText = (err: unknown): string =>
  (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2_000);
