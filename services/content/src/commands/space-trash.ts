import { Events } from '@quire/contracts';
import { DomainError, notFound, recordEvent, type EntityManager } from '@quire/kit';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { spaceRepository } from '../modules/spaces/space.repository.ts';
import { gitSpaceDetacher, gitSpacesForgetter } from './git-connection-writer.ts';

/** A deleted space can be restored for this many days; then the purge job removes it for good. */
export const RESTORE_WINDOW_DAYS = 7;
export const RESTORE_WINDOW_MS = RESTORE_WINDOW_DAYS * 24 * 3600 * 1_000;

export interface SpaceTrashProps {
  space: ISpace;
  now?: Date;
}

export interface SpaceDeleterProps extends SpaceTrashProps {
  /** The user who deletes it (shown in the trash). */
  by?: string;
}

/**
 * Moves a space to the trash (`deletedAt`, `deletedBy`, `space.deleted`); its Git connection goes. Deleting a
 * deleted space changes nothing.
 */
export async function spaceDeleter(
  em: EntityManager,
  { space, now = new Date(), by }: SpaceDeleterProps,
): Promise<void> {
  if (space.deletedAt) return;
  space.deletedAt = now;
  space.deletedBy = by ?? null;
  em.persist(space);
  await gitSpaceDetacher(em, { spaceId: space.id, now });
  recordEvent(em, Events.spaceDeleted, {
    space: space.id,
    organization: space.organizationId,
    deletedAt: now.toISOString(),
  });
}

/**
 * Takes a space out of the trash within the restore window (`space.restored`); after it, 412. The update is
 * conditional on the window, so a restore racing the purge either wins or finds nothing (404).
 */
export async function spaceRestorer(em: EntityManager, { space, now = new Date() }: SpaceTrashProps): Promise<ISpace> {
  if (!space.deletedAt) return space;
  const cutoff = new Date(now.getTime() - RESTORE_WINDOW_MS);
  if (space.deletedAt < cutoff) {
    throw new DomainError(
      'precondition_failed',
      `The space was deleted more than ${RESTORE_WINDOW_DAYS} days ago and can no longer be restored`,
    );
  }
  if (!(await spaceRepository.restoreIfDeletedSince(em, space.id, cutoff, now))) throw notFound('Space');
  recordEvent(em, Events.spaceRestored, { space: space.id, organization: space.organizationId, title: space.title });
  space.deletedAt = null;
  space.deletedBy = null;
  space.updatedAt = now;
  return space;
}

export interface DeletedSpacePurgerProps {
  now?: Date;
  /** At most this many spaces. */
  limit: number;
}

/**
 * Removes for good up to `limit` spaces deleted more than 7 days before `now`, with their revisions
 * (cascade), each with its `space.purged` event. Concurrent purges skip each other's rows. Returns the ids.
 */
export async function deletedSpacePurger(
  em: EntityManager,
  { now = new Date(), limit }: DeletedSpacePurgerProps,
): Promise<string[]> {
  const gone = await spaceRepository.purgeDeletedBefore(em, new Date(now.getTime() - RESTORE_WINDOW_MS), limit);
  for (const r of gone) recordEvent(em, Events.spacePurged, { space: r.id, organization: r.organization_id });
  await gitSpacesForgetter(em, { spaceIds: gone.map((r) => r.id) });
  return gone.map((r) => r.id);
}
