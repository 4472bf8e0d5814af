import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { AuditRecord } from '@quire/contracts';

/** One entry of the audit log (append-only: see migration 0006). Read and written by `audit.repository.ts`. */
export const AuditEventRow = defineEntity({
  name: 'AuditEventRow',
  tableName: 'audit_event',
  properties: {
    id: p.uuid().primary(),
    organizationId: p.string().nullable(),
    occurredAt: p.datetime(),
    action: p.string(),
    service: p.string(),
    actorType: p.string(),
    actorId: p.string(),
    actorLabel: p.string().nullable(),
    targetType: p.string(),
    targetId: p.string(),
    targetLabel: p.string().nullable(),
    targetIds: p.array(),
    record: p.json<AuditRecord>(),
    receivedAt: p.datetime(),
  },
});
export type IAuditEventRow = InferEntity<typeof AuditEventRow>;
