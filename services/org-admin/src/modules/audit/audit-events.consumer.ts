import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { User } from '../users/user.entity.ts';
import { auditRepository } from './audit.repository.ts';

export const AUDIT_LOG_CONSUMER = 'org-admin-audit-log';

/**
 * Fills the audit log from every service's `audit.recorded` events (each written by the kit's mutation mold in
 * the mutation's own transaction). At least once from the outbox relay and the bus, exactly once here: the
 * consumer's dedupe row (by event id) and the entry's primary key (the audit event id) both drop a
 * redelivery. The actor's display name is captured as the entry's label when the entry arrives.
 */
export const auditLogConsumer = defineConsumer(
  AUDIT_LOG_CONSUMER,
  [
    Events.orgAdminAuditRecorded,
    Events.contentAuditRecorded,
    Events.sitesAuditRecorded,
    Events.integrationsAuditRecorded,
  ],
  {
    'audit.recorded': async (e, em) => {
      const record = e.data;
      const user =
        record.actor.type === 'user'
          ? await em.findOne(User, { id: record.actor.id }, { fields: ['displayName'] })
          : null;
      await auditRepository.append(em, record, user?.displayName ?? null);
    },
  },
);
