import type { EntityManager } from '@quire/kit';
import { auditRepository } from '../modules/audit/audit.repository.ts';

/** Deletes up to `batch` audit log entries older than `before` (the retention job's step); answers how many went. */
export function auditPurger(em: EntityManager, { before, batch }: { before: Date; batch: number }): Promise<number> {
  return auditRepository.purgeBefore(em, before, batch);
}
