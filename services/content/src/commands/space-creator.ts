import { Events } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Revision, Space, type ISpace } from '../modules/spaces/space.entity.ts';

export interface CreateSpaceProps {
  organizationId: string;
  title?: string | undefined;
  emoji?: string | undefined;
  editMode?: 'live' | 'locked' | undefined;
}

/** A new private space with its first (empty) revision; `space.created` goes to the outbox with it. */
export async function createSpace(em: EntityManager, props: CreateSpaceProps): Promise<ISpace> {
  const now = new Date();
  const id = newId();
  const revision = em.create(Revision, { id: newId(), spaceId: id, parents: [], type: 'edits', createdAt: now });
  const space = em.create(Space, {
    id,
    organizationId: props.organizationId,
    parentId: null,
    title: props.title ?? 'Untitled',
    emoji: props.emoji ?? '',
    visibility: 'private',
    editMode: props.editMode ?? 'live',
    defaultLevel: 'inherit',
    revisionId: revision.id,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  });
  recordEvent(em, Events.spaceCreated, { space: space.id, organization: space.organizationId, title: space.title });
  await em.flush();
  return space;
}
