import type { AuditEvent, AuditEventDetails } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { AuditRow } from './audit.repository.ts';

/** An entry as GitBook's `AuditEvent`. */
export function presentAuditEvent(urls: PublicUrls, row: AuditRow): AuditEvent {
  return {
    object: 'audit-event',
    id: row.id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id, ...(row.actor_label ? { label: row.actor_label } : {}) },
    source: 'api',
    target: { type: row.target_type, id: row.target_id, ...(row.target_label ? { label: row.target_label } : {}) },
    urls: { location: urls.api(`/orgs/${row.organization_id}/audit-events/${row.id}`) },
  };
}

/** An entry with its details: the request id, the client's address and user agent, the token, every target. */
export function presentAuditEventDetails(urls: PublicUrls, row: AuditRow): AuditEventDetails {
  const r = row.record;
  return {
    ...presentAuditEvent(urls, row),
    ...(r.requestId ? { executionId: r.requestId, correlationId: r.requestId } : {}),
    schemaVersion: 1,
    payload: {
      service: r.service,
      operationId: r.operationId,
      ...(r.actor.tokenId ? { tokenId: r.actor.tokenId } : {}),
      ...(r.requestId ? { requestId: r.requestId } : {}),
      ...(r.ip ? { ip: r.ip } : {}),
      ...(r.userAgent ? { userAgent: r.userAgent } : {}),
      targets: r.targets,
      fields: r.fields,
      events: r.events,
    },
  };
}
