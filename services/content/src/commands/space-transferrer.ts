import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { grantRepository } from '../modules/permissions/grant.repository.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';

export interface SpaceTransferrerProps {
  space: ISpace;
  /** The target organization (the caller's admin role in both is checked by the policy). */
  organizationId: string;
  now?: Date;
}

/**
 * Moves a space and its content to another organization, last at its top level (it leaves its collection;
 * `in-collection` visibility becomes `private`). Revisions belong to the space, so they move with it.
 * Its explicit grants follow it for the users who are members of the target organization (team grants are dropped).
 * `space.transferred` tells the other services (sites re-homes its view of the space).
 */
export async function spaceTransferrer(em: EntityManager, props: SpaceTransferrerProps): Promise<ISpace> {
  const { space } = props;
  const order = await placeInTree(em, { organizationId: props.organizationId, parentId: null });
  const previousOrganization = space.organizationId;
  space.organizationId = props.organizationId;
  space.parentId = null;
  space.order = order;
  if (space.visibility === 'in-collection') space.visibility = 'private';
  space.updatedAt = props.now ?? new Date();
  em.persist(space);
  await grantRepository.transfer(em, 'space', [space.id], props.organizationId);
  recordEvent(em, Events.spaceTransferred, {
    space: space.id,
    organization: space.organizationId,
    previousOrganization,
    title: space.title,
  });
  return space;
}
