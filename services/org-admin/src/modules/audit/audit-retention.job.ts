import type { MikroORM } from '@mikro-orm/postgresql';
import type { JobDefinition, Logger } from '@quire/kit';
import { auditPurger } from '../../commands/audit-purger.ts';

export const AUDIT_RETENTION_JOB = 'org-admin-audit-retention';
const HOUR_MS = 3_600_000;
const BATCH = 5_000;

/**
 * Purges the audit log's entries older than `retentionDays` (0: keep them forever), hourly, in batches of
 * 5 000 (one transaction each, so a large purge never holds a long one). The only way an entry leaves the log.
 */
export function auditRetentionJob(orm: MikroORM, retentionDays: number, log: Logger, everyMs = HOUR_MS): JobDefinition {
  return {
    name: AUDIT_RETENTION_JOB,
    everyMs,
    run: async () => {
      if (retentionDays <= 0) return;
      const before = new Date(Date.now() - retentionDays * 86_400_000);
      let purged = 0;
      for (;;) {
        const n = await orm.em.fork().transactional((em) => auditPurger(em, { before, batch: BATCH }));
        purged += n;
        if (n < BATCH) break;
      }
      if (purged) log.info({ purged, before: before.toISOString() }, 'audit log entries purged');
    },
  };
}
