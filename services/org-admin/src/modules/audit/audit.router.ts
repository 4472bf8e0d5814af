import { ALL_OPERATIONS, ops } from '@quire/contracts';
import { auditActionsOf, isAudited } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { assertAuditLogReader, loadAuditEventFor, loadAuditEvents } from './audit.loader.ts';
import { presentAuditEvent, presentAuditEventDetails } from './audit.presenter.ts';

/**
 * Every action the log records: one per mutation of the API, or one per change it can make (GitBook's id and label
 * where it has the same change, the operation id and summary elsewhere).
 */
export const AUDIT_ACTIONS = ALL_OPERATIONS.filter(isAudited)
  .flatMap((op) => auditActionsOf(op).map((a) => ({ object: 'audit-event-action' as const, ...a })))
  .sort((a, b) => a.id.localeCompare(b.id));

/** The audit log of an organization, read by its admins: no operation writes, updates or deletes it. */
export const auditProcedures = {
  listOrganizationAuditEvents: implement(ops.listOrganizationAuditEvents, async ({ input, ctx }) => {
    const page = await loadAuditEvents(ctx, input);
    return { ...page, items: page.items.map((row) => presentAuditEvent(ctx.urls, row)) };
  }),

  getOrganizationAuditEvent: implement(ops.getOrganizationAuditEvent, async ({ input, ctx }) =>
    presentAuditEventDetails(ctx.urls, await loadAuditEventFor(ctx, input)),
  ),

  listOrganizationAuditEventActions: implement(ops.listOrganizationAuditEventActions, async ({ input, ctx }) => {
    assertAuditLogReader(ctx, input);
    return { items: AUDIT_ACTIONS };
  }),
};
