import type { ContentPosition } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';
import { spaceChangeRecorder } from './space-updater.ts';

export interface SpaceMoverProps {
  space: ISpace;
  /** The destination parent (resolved and checked by the caller: modules/tree/destination.ts). */
  parentId: string | null;
  position?: ContentPosition | undefined;
  now?: Date;
}

/**
 * Puts a space in its destination parent, before/after a sibling or last. A space leaving collections loses
 * the `in-collection` visibility (only defined inside one) and becomes `private`. `space.updated` names the
 * fields that changed (`parent`, `position`, `visibility`).
 */
export async function spaceMover(em: EntityManager, props: SpaceMoverProps): Promise<ISpace> {
  const { space } = props;
  const order = await placeInTree(em, {
    organizationId: space.organizationId,
    parentId: props.parentId,
    position: props.position,
    item: { kind: 'space', id: space.id },
  });
  const fields = ['position'];
  if (props.parentId !== (space.parentId ?? null)) fields.unshift('parent');
  if (props.parentId === null && space.visibility === 'in-collection') {
    space.visibility = 'private';
    fields.push('visibility');
  }
  space.parentId = props.parentId;
  space.order = order;
  space.updatedAt = props.now ?? new Date();
  return spaceChangeRecorder(em, space, fields);
}
