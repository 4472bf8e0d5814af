/**
 * SQLSTATEs after which a mutation's whole transaction may simply run again and then answer what it would have
 * answered alone: a unique key or a foreign key another transaction took or removed in between (23505, 23503:
 * check-then-insert races, a parent deleted meanwhile), a serialization failure or a deadlock (40001, 40P01).
 * On the second run the loaders see the committed state: the PUT updates the row the other one inserted, the
 * child of a deleted parent answers 404.
 */
const RETRYABLE_STATES = new Set(['23505', '23503', '40001', '40P01']);

/** Whether `err` (or what caused it) is a conflict with a concurrent transaction that a new attempt resolves. */
export function isRetryableConflict(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 5) return false;
  const e = err as { code?: unknown; sqlState?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && RETRYABLE_STATES.has(e.code)) return true;
  if (typeof e.sqlState === 'string' && RETRYABLE_STATES.has(e.sqlState)) return true;
  return isRetryableConflict(e.cause, depth + 1);
}

export interface RetryOptions {
  /** Runs in all (default 4: the first and three more). */
  attempts?: number;
  /** Called before each new attempt (logging). */
  onRetry?: (err: unknown, attempt: number) => void;
}

/**
 * Runs `transaction` (a whole transaction: begin … commit) again when it failed on a conflict with a concurrent
 * one (`isRetryableConflict`), after a short random pause, up to `attempts` runs; any other error, or the last
 * conflict, is thrown as it is. The transaction must do nothing outside the database that it cannot do twice.
 */
export async function retryTransaction<T>(
  transaction: () => Promise<T>,
  { attempts = 4, onRetry }: RetryOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (attempt >= attempts || !isRetryableConflict(err)) throw err;
      onRetry?.(err, attempt);
      await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
    }
  }
}
