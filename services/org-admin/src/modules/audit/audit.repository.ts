import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditRecord } from '@quire/contracts';
import { decodeCursor, encodeCursor, sql, sqlRun } from '@quire/kit';
import { z } from 'zod';

/** A row of the audit log as the API shows it. */
export interface AuditRow {
  id: string;
  organization_id: string | null;
  occurred_at: Date | string;
  action: string;
  actor_type: AuditRecord['actor']['type'];
  actor_id: string;
  actor_label: string | null;
  target_type: string;
  target_id: string;
  target_label: string | null;
  record: AuditRecord;
}

export interface AuditFilter {
  organizationId: string;
  from?: string | undefined;
  to?: string | undefined;
  action?: string | undefined;
  actor?: string | undefined;
  target?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLUMNS =
  'id, organization_id, occurred_at, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, record';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The keyset of a page: the last row's `occurred_at` and id. Every `occurred_at` comes from a JavaScript ISO
 * string (milliseconds), so the cursor's ISO string names it exactly.
 */
export const encodeAuditCursor = (row: { occurred_at: Date | string; id: string }) =>
  encodeCursor([new Date(row.occurred_at).toISOString(), row.id]);

const AUDIT_KEY = z.tuple([
  z
    .string()
    .regex(ISO)
    .refine((at) => !at.startsWith('0000') && !Number.isNaN(Date.parse(at))),
  z.string().regex(UUID),
]);

export function decodeAuditCursor(page: string): { occurredAt: string; id: string } {
  const [occurredAt, id] = decodeCursor(page, AUDIT_KEY);
  return { occurredAt, id };
}

function whereOf(f: AuditFilter): { text: string; params: unknown[] } {
  const conditions: [string, unknown][] = [
    ['organization_id = ?', f.organizationId],
    ['occurred_at >= ?::timestamptz', f.from],
    ['occurred_at <= ?::timestamptz', f.to],
    ['action = ?', f.action],
    ['actor_id = ?', f.actor],
    // Any resource the change concerned (GIN index on `target_ids`).
    ['target_ids @> array[?]::text[]', f.target],
  ];
  const used = conditions.filter(([, value]) => value !== undefined);
  return { text: used.map(([c]) => c).join(' and '), params: used.map(([, v]) => v) };
}

export const auditRepository = {
  /** Appends a record once: a redelivered one (same id) changes nothing. Resolves to whether it was new. */
  async append(em: EntityManager, record: AuditRecord, actorLabel: string | null): Promise<boolean> {
    const n = await sqlRun(
      em,
      `insert into :schema.audit_event (id, organization_id, occurred_at, action, service, actor_type, actor_id, actor_label,
         target_type, target_id, target_label, target_ids, record)
       values (?::uuid, ?, ?::timestamptz, ?, ?, ?, ?, ?, ?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?::jsonb)
       on conflict (id) do nothing`,
      [
        record.id,
        record.organization,
        record.occurredAt,
        record.action,
        record.service,
        record.actor.type,
        record.actor.id,
        actorLabel,
        record.target.type,
        record.target.id,
        record.target.label ?? null,
        JSON.stringify(record.targets.map((t) => t.id)),
        JSON.stringify(record),
      ],
    );
    return n > 0;
  },

  /**
   * A page, newest first, after the cursor `page`, and the number of entries matching the filter: one
   * statement, so both see the same snapshot (an entry arriving meanwhile is in both or in neither).
   */
  async page(
    em: EntityManager,
    f: AuditFilter,
    limit: number,
    page: string | undefined,
  ): Promise<{ rows: AuditRow[]; count: number }> {
    const where = whereOf(f);
    const after = page ? decodeAuditCursor(page) : undefined;
    const keyset = after ? ` and (occurred_at, id) < (?::timestamptz, ?::uuid)` : '';
    const found = await sql<AuditRow & { total: number }>(
      em,
      `select (select count(*)::int from :schema.audit_event where ${where.text}) as total, p.*
         from (select 1) as one
         left join lateral (
           select ${COLUMNS} from :schema.audit_event where ${where.text}${keyset}
            order by occurred_at desc, id desc limit ?) as p on true`,
      [...where.params, ...where.params, ...(after ? [after.occurredAt, after.id] : []), limit + 1],
    );
    return { rows: found.filter((r) => r.id !== null), count: found[0]?.total ?? 0 };
  },

  async get(em: EntityManager, organizationId: string, id: string): Promise<AuditRow | null> {
    if (!UUID.test(id)) return null;
    const [row] = await sql<AuditRow>(
      em,
      `select ${COLUMNS} from :schema.audit_event where organization_id = ? and id = ?::uuid`,
      [organizationId, id],
    );
    return row ?? null;
  },

  /** Deletes up to `batch` entries older than `before` (the retention job); resolves to how many went. */
  async purgeBefore(em: EntityManager, before: Date, batch: number): Promise<number> {
    return sqlRun(
      em,
      `delete from :schema.audit_event where id in (select id from :schema.audit_event where occurred_at < ? order by occurred_at limit ?)`,
      [before, batch],
    );
  },
};
