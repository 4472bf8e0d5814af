import type { EntityManager } from '@mikro-orm/postgresql';

/** `:schema.` in a statement names the service's own schema (`:schema.space`), taken from the ORM config. */
const qualify = (em: EntityManager, text: string) => text.replaceAll(':schema.', `"${em.config.get('schema')}".`);

/**
 * Inside a transaction (a mutation), what the unit of work holds is written before a raw statement runs,
 * so the statement sees the call's own changes (as `em.find` does with its auto-flush).
 */
async function flushPending(em: EntityManager): Promise<void> {
  if (em.isInTransaction()) await em.flush();
}

/**
 * Rows of a raw query, in the caller's transaction (if any); `?` are the bound parameters. For
 * repositories only: SQL lives next to the entity it reads or writes.
 */
export async function sql<T = Record<string, unknown>>(em: EntityManager, text: string, params: unknown[] = []): Promise<T[]> {
  await flushPending(em);
  return (await em.getConnection().execute(qualify(em, text), params as never[], 'all', em.getTransactionContext())) as T[];
}

/** Runs a raw statement in the caller's transaction (if any); resolves to the affected rows. */
export async function sqlRun(em: EntityManager, text: string, params: unknown[] = []): Promise<number> {
  await flushPending(em);
  const res = (await em.getConnection().execute(qualify(em, text), params as never[], 'run', em.getTransactionContext())) as { affectedRows?: number };
  return res.affectedRows ?? 0;
}

/** `?, ?, ?` for an `in (...)` list of `n` values. */
export const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
