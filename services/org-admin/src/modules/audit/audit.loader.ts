import { AUDIT_PAGE_SIZE, type List } from '@quire/contracts';
import { notFound } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import { auditLogPolicy, type AuditLogFacts } from './audit.policy.ts';
import { auditRepository, encodeAuditCursor, type AuditFilter, type AuditRow } from './audit.repository.ts';

type Ctx = Pick<UserContext, 'em' | 'actor'>;

/** The caller may read the organization's audit log (its admins: 403 for other members, 404 for outsiders). */
export function assertAuditLogReader(ctx: Pick<UserContext, 'actor'>, ids: AuditLogFacts): void {
  auditLogPolicy.assert(ctx.actor, ids, 'read');
}

/** A page of the audit log the caller may read, newest first (`limit` rows, the cursor after the last). */
export async function loadAuditEvents(
  ctx: Ctx,
  input: AuditFilter & { limit?: number | undefined; page?: string | undefined },
): Promise<List<AuditRow>> {
  assertAuditLogReader(ctx, input);
  const limit = input.limit ?? AUDIT_PAGE_SIZE.default;
  const { rows, count } = await auditRepository.page(ctx.em, input, limit, input.page);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { ...(rows.length > limit && last ? { next: { page: encodeAuditCursor(last) } } : {}), count, items };
}

/** An event of the audit log the caller may read (404 when there is none). */
export async function loadAuditEventFor(
  ctx: Ctx,
  input: { organizationId: string; auditEventId: string },
): Promise<AuditRow> {
  assertAuditLogReader(ctx, input);
  const row = await auditRepository.get(ctx.em, input.organizationId, input.auditEventId);
  if (!row) throw notFound('Audit event');
  return row;
}
