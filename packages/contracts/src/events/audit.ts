import { AuditRecordSchema } from '../schemas/audit.ts';
import { defineEvent } from './define.ts';

/**
 * One per mutation of the API, written by the kit's mutation mold into the service's outbox in the mutation's
 * own transaction (`<service>.audit.recorded`); org-admin keeps them in the audit log.
 */
export const auditEvents = {
  orgAdminAuditRecorded: defineEvent('org-admin', 'audit.recorded', AuditRecordSchema),
  contentAuditRecorded: defineEvent('content', 'audit.recorded', AuditRecordSchema),
  sitesAuditRecorded: defineEvent('sites', 'audit.recorded', AuditRecordSchema),
  integrationsAuditRecorded: defineEvent('integrations', 'audit.recorded', AuditRecordSchema),
} as const;

/** The audit event of each service. */
export const AUDIT_EVENT_OF = {
  'org-admin': auditEvents.orgAdminAuditRecorded,
  content: auditEvents.contentAuditRecorded,
  sites: auditEvents.sitesAuditRecorded,
  integrations: auditEvents.integrationsAuditRecorded,
} as const;
