import { Events, type DefaultLevel, type SpaceEditMode, type SpaceVisibility } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Revision, Space, type ISpace } from '../modules/spaces/space.entity.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';

export interface SpaceCreatorProps {
  organizationId: string;
  /** The parent collection (checked by the caller), or the top level. */
  parentId?: string | null | undefined;
  title?: string | undefined;
  emoji?: string | undefined;
  editMode?: SpaceEditMode | undefined;
  now?: Date;
}

/** A new private space, last in its parent, with its first (empty) revision; `space.created` goes to the outbox with it. */
export async function spaceCreator(em: EntityManager, props: SpaceCreatorProps): Promise<ISpace> {
  const now = props.now ?? new Date();
  const parentId = props.parentId ?? null;
  const order = await placeInTree(em, { organizationId: props.organizationId, parentId });
  const id = newId();
  const revisionId = newId();
  const revision = em.create(Revision, {
    id: revisionId,
    spaceId: id,
    parents: [],
    type: 'edits',
    createdAt: now,
    createdBy: null,
    changeRequestId: null,
    lineage: [revisionId],
    conflicts: [],
  });
  const space = em.create(Space, {
    id,
    organizationId: props.organizationId,
    parentId,
    order,
    title: props.title ?? 'Untitled',
    emoji: props.emoji ?? '',
    icon: null,
    visibility: 'private' satisfies SpaceVisibility,
    editMode: props.editMode ?? 'live',
    defaultLevel: 'inherit' satisfies DefaultLevel,
    revisionId: revision.id,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  });
  recordEvent(em, Events.spaceCreated, {
    space: space.id,
    organization: space.organizationId,
    title: space.title,
    ...(parentId ? { parent: parentId } : {}),
  });
  return space;
}
