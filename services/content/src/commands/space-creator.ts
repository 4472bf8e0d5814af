import { Events, type SpaceEditMode, type SpaceVisibility } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Revision, Space, type ISpace } from '../modules/spaces/space.entity.ts';
import { createdEventOf, newItemFields, type NewItemProps } from '../modules/tree/sibling-order.ts';

export interface SpaceCreatorProps extends NewItemProps {
  emoji?: string | undefined;
  editMode?: SpaceEditMode | undefined;
}

/** A new private space, last in its parent, with its first (empty) revision; `space.created` goes to the outbox with it. */
export async function spaceCreator(em: EntityManager, props: SpaceCreatorProps): Promise<ISpace> {
  const fields = await newItemFields(em, props);
  const id = newId();
  const revisionId = newId();
  const revision = em.create(Revision, {
    id: revisionId,
    spaceId: id,
    parents: [],
    type: 'edits',
    createdAt: fields.createdAt,
    createdBy: null,
    changeRequestId: null,
    lineage: [revisionId],
    conflicts: [],
  });
  const space = em.create(Space, {
    id,
    ...fields,
    emoji: props.emoji ?? '',
    icon: null,
    visibility: 'private' satisfies SpaceVisibility,
    editMode: props.editMode ?? 'live',
    revisionId: revision.id,
    deletedAt: null,
  });
  recordEvent(em, Events.spaceCreated, {
    space: space.id,
    ...createdEventOf(space),
  });
  return space;
}
