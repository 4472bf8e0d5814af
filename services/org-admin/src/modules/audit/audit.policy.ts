import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel } from '@quire/kit';

export interface AuditLogFacts {
  organizationId: string;
}

/**
 * Who reads an organization's audit log: its admins only (other members get 403, outsiders 404). Nobody
 * writes it through the API: entries come from the mutations themselves, and leave by retention only.
 */
export const auditLogPolicy = definePolicy({
  resource: 'Organization',
  role: (actor: Actor, facts: AuditLogFacts) => organizationLevel(actor, facts.organizationId),
  actions: { read: 'admin' },
  refusals: { read: 'Only organization admins can read the audit log' },
});
