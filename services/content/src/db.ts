import type { EntityManager } from '@quire/kit';

/**
 * A raw statement of this service, in the caller's transaction (if any). `:schema.` names the service's own
 * schema (`:schema.space`), `?` are the bound parameters.
 */
export async function sql<T = Record<string, unknown>>(em: EntityManager, text: string, params: unknown[] = [], method: 'all' | 'run' = 'all'): Promise<T[]> {
  const query = text.replaceAll(':schema.', `"${em.config.get('schema')}".`);
  const res = await em.getConnection().execute(query, params as never[], method, em.getTransactionContext());
  return (method === 'all' ? res : []) as T[];
}

/** Affected rows of a `run` statement. */
export async function sqlRun(em: EntityManager, text: string, params: unknown[] = []): Promise<number> {
  const query = text.replaceAll(':schema.', `"${em.config.get('schema')}".`);
  const res = (await em.getConnection().execute(query, params as never[], 'run', em.getTransactionContext())) as { affectedRows?: number };
  return res.affectedRows ?? 0;
}
