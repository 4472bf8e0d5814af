import { metrics } from '../metrics.ts';

/** How a claim's lease is kept while it is worked. */
export interface LeaseOptions<C> {
  /** The job (or queue) the claims belong to: names the loop in logs and in `quire_job_lease_renewal_failures_total`. */
  name: string;
  log: { warn(obj: object, msg: string): void };
  /** How long a claim lasts without renewal; it is renewed every third of it while worked. */
  leaseMs: number;
  /** Extends the claim's lease by `leaseMs` from now (in its own transaction). */
  renew(claim: C): Promise<unknown>;
  /** What identifies the claim in a log line (its id). */
  describe?(claim: C): Record<string, unknown>;
}

export interface LeasedClaimsOptions<C> extends LeaseOptions<C> {
  /** Claims worked by one call at most (the next run goes on). */
  max: number;
  /** Claims the next item waiting (in its own transaction), or `null` when none waits. */
  claim(): Promise<C | null>;
  /** Works on one claim, its lease renewed meanwhile. A throw ends the loop and is rethrown: the claim lapses. */
  work(claim: C): Promise<void>;
}

/**
 * The one claim → work → next loop over a table of leased items (Git operations, OpenAPI specifications,
 * PDF exports): claims one item at a time, up to `max`, works it while its lease is renewed (`holdLease`),
 * and returns the claims worked. An error of `work` stops the loop and is thrown to the job runner (which
 * logs, counts and retries the run); the claim's lease then lapses and the item is claimed again.
 */
export async function runLeasedClaims<C>(opts: LeasedClaimsOptions<C>): Promise<C[]> {
  const done: C[] = [];
  while (done.length < opts.max) {
    const claim = await opts.claim();
    if (claim === null) break;
    await holdLease(opts, claim, () => opts.work(claim));
    done.push(claim);
  }
  return done;
}

/**
 * Runs `work` while renewing `claim`'s lease every `leaseMs / 3`. A renewal that fails is logged (warn)
 * and counted (`quire_job_lease_renewal_failures_total{job}`), never swallowed; the work goes on (the next
 * renewal may succeed; if the lease lapses, the item is claimed again and its work is idempotent).
 */
export async function holdLease<C, T>(opts: LeaseOptions<C>, claim: C, work: () => Promise<T>): Promise<T> {
  const renew = setInterval(
    () => {
      opts.renew(claim).catch((err: unknown) => {
        metrics.jobLeaseRenewalFailures.inc({ job: opts.name });
        opts.log.warn({ err, job: opts.name, ...opts.describe?.(claim) }, 'lease not renewed');
      });
    },
    Math.max(50, Math.floor(opts.leaseMs / 3)),
  );
  try {
    return await work();
  } finally {
    clearInterval(renew);
  }
}
