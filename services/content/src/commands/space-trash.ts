import { Events } from '@quire/contracts';
import { DomainError, notFound, recordEvent, type EntityManager } from '@quire/kit';
import { sql } from '../db.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';

/** A deleted space can be restored for this many days; then the purge job removes it for good. */
export const RESTORE_WINDOW_DAYS = 7;
export const RESTORE_WINDOW_MS = RESTORE_WINDOW_DAYS * 24 * 3600 * 1_000;

/** Moves a space to the trash (`deletedAt`, `space.deleted`). Deleting a deleted space changes nothing. */
export async function deleteSpace(em: EntityManager, space: ISpace, now = new Date()): Promise<void> {
  if (space.deletedAt) return;
  await em.transactional(async (tx) => {
    space.deletedAt = now;
    tx.persist(space);
    recordEvent(tx, Events.spaceDeleted, { space: space.id, organization: space.organizationId, deletedAt: now.toISOString() });
  });
}

/**
 * Takes a space out of the trash within the restore window (`space.restored`); after it, 412. The update is
 * conditional on the window, so a restore racing the purge either wins or finds nothing (404).
 */
export async function restoreSpace(em: EntityManager, space: ISpace, now = new Date()): Promise<ISpace> {
  if (!space.deletedAt) return space;
  const cutoff = new Date(now.getTime() - RESTORE_WINDOW_MS);
  if (space.deletedAt < cutoff) {
    throw new DomainError('precondition_failed', `The space was deleted more than ${RESTORE_WINDOW_DAYS} days ago and can no longer be restored`);
  }
  return em.transactional(async (tx) => {
    const rows = await sql(tx, `update :schema.space set deleted_at = null, updated_at = ? where id = ? and deleted_at >= ? returning id`, [now, space.id, cutoff]);
    if (!rows.length) throw notFound('Space');
    recordEvent(tx, Events.spaceRestored, { space: space.id, organization: space.organizationId, title: space.title });
    space.deletedAt = null;
    space.updatedAt = now;
    return space;
  });
}

/**
 * The purge: removes for good every space deleted more than 7 days before `now`, with its revisions
 * (cascade), each with its `space.purged` event in the same transaction. Idempotent (a purged space is gone;
 * concurrent purges skip each other's rows). Returns the ids purged.
 */
export async function purgeDeletedSpaces(em: EntityManager, now = new Date(), batch = 100): Promise<string[]> {
  const purged: string[] = [];
  for (;;) {
    const rows = await em.fork().transactional(async (tx) => {
      const gone = await sql<{ id: string; organization_id: string }>(
        tx,
        `delete from :schema.space where id in (
           select id from :schema.space where deleted_at < ?::timestamptz - interval '${RESTORE_WINDOW_DAYS} days'
           order by deleted_at limit ? for update skip locked)
         returning id, organization_id`,
        [now, batch],
      );
      for (const r of gone) recordEvent(tx, Events.spacePurged, { space: r.id, organization: r.organization_id });
      return gone;
    });
    purged.push(...rows.map((r) => r.id));
    if (rows.length < batch) return purged;
  }
}
