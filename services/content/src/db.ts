import type { EntityManager } from '@quire/kit';

/** `:schema.` in a statement names this service's own schema (`:schema.space`). */
const qualify = (em: EntityManager, text: string) => text.replaceAll(':schema.', `"${em.config.get('schema')}".`);

/** Rows of a raw query of this service, in the caller's transaction (if any); `?` are the bound parameters. */
export async function sql<T = Record<string, unknown>>(em: EntityManager, text: string, params: unknown[] = []): Promise<T[]> {
  return (await em.getConnection().execute(qualify(em, text), params as never[], 'all', em.getTransactionContext())) as T[];
}

/** Runs a raw statement of this service, in the caller's transaction (if any); resolves to the affected rows. */
export async function sqlRun(em: EntityManager, text: string, params: unknown[] = []): Promise<number> {
  const res = (await em.getConnection().execute(qualify(em, text), params as never[], 'run', em.getTransactionContext())) as { affectedRows?: number };
  return res.affectedRows ?? 0;
}
