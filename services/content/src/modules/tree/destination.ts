import type { ContentPosition } from '@quire/contracts';
import { invalid, type EntityManager } from '@quire/kit';
import type { ICollection } from '../collections/collection.entity.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import { treeRepository } from './tree.repository.ts';

export interface DestinationRequest {
  organizationId: string;
  /** Where the item is now. */
  currentParentId: string | null | undefined;
  /** `parent` of the request: a collection id, null for the top level, undefined to keep it or follow `position`. */
  parent: string | null | undefined;
  position?: ContentPosition | undefined;
}

export interface Destination {
  parentId: string | null;
  /** The destination collection (null at the top level). */
  collection: ICollection | null;
}

/**
 * Where a move goes: `parent` when given; else the parent of the sibling named by `position`; else where the
 * item already is. 400 (naming the field) when the collection or sibling is not in the organization.
 */
export async function resolveDestination(em: EntityManager, req: DestinationRequest): Promise<Destination> {
  let parentId: string | null;
  if (req.parent !== undefined) {
    parentId = req.parent;
  } else {
    const pointer = req.position?.before ?? req.position?.after;
    if (!pointer) {
      parentId = req.currentParentId ?? null;
    } else {
      const field = req.position?.before ? 'position.before' : 'position.after';
      const [kind, id] =
        pointer.type === 'space' ? (['space', pointer.space] as const) : (['collection', pointer.collection] as const);
      const parent = await treeRepository.parentOf(em, kind, id, req.organizationId);
      if (parent === undefined) throw invalid(`${field}: no ${kind} ${id} in this organization`);
      parentId = parent;
    }
  }
  if (parentId === null) return { parentId, collection: null };
  const collection = await collectionRepository.findIn(em, req.organizationId, parentId);
  if (!collection) throw invalid(`parent: no collection ${parentId} in this organization`);
  return { parentId, collection };
}
