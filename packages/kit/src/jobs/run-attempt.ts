import type { Logger } from '../logger.ts';
import { metrics } from '../metrics.ts';
import { retryDelay, type DeadLetter, type JobDefinition, type JobMessage } from './job.ts';

/**
 * What both runners do with one attempt of a run (the same retry, backoff and dead-letter rules): the runner
 * decides only how a run is delivered again, and where a dead letter goes.
 */

/** The run's payload as the job validates it, or the dead letter's error when it is invalid. */
export function parsePayload(
  def: JobDefinition<any>,
  msg: JobMessage,
): { ok: true; payload: unknown } | { ok: false; error: string } {
  if (!def.payload) return { ok: true, payload: msg.payload };
  const parsed = def.payload.safeParse(msg.payload);
  return parsed.success
    ? { ok: true, payload: parsed.data }
    : { ok: false, error: `invalid payload: ${parsed.error.message}` };
}

/** Runs the handler once, counting the run when it succeeds. */
export async function runAttempt(
  def: JobDefinition<any>,
  msg: JobMessage,
  payload: unknown,
  attempt: number,
): Promise<void> {
  await def.run({ id: msg.id, job: def.name, payload, attempt, enqueuedAt: msg.enqueuedAt });
  metrics.jobRuns.inc({ job: def.name, outcome: 'ok' });
}

/** Counts and logs a failed attempt that will be tried again; answers the delay before the next attempt. */
export function retryAfter(
  log: Logger,
  def: JobDefinition<any>,
  msg: JobMessage,
  attempt: number,
  err: unknown,
): number {
  metrics.jobRuns.inc({ job: def.name, outcome: 'retry' });
  const delay = retryDelay(def, attempt);
  log.warn({ err, job: def.name, run: msg.id, attempt, retryInMs: delay }, 'job failed, will retry');
  return delay;
}

/** The dead letter of a run that will not be tried again, with its last error. */
export function deadLetterOf(def: JobDefinition<any>, msg: JobMessage, attempts: number, error: string): DeadLetter {
  return { id: msg.id, job: def.name, payload: msg.payload, attempts, error, failedAt: new Date().toISOString() };
}

/** Logs and counts a dead letter once the runner has kept it. */
export function deadLettered(log: Logger, dead: DeadLetter): void {
  log.error({ job: dead.job, run: dead.id, attempts: dead.attempts, error: dead.error }, 'job dead-lettered');
  metrics.jobRuns.inc({ job: dead.job, outcome: 'dead' });
  metrics.jobDeadLetters.inc({ job: dead.job });
}
