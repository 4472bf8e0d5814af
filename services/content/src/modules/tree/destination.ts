import type { ContentPosition } from '@quire/contracts';
import { invalid, type EntityManager } from '@quire/kit';
import { sql } from '../../db.ts';
import { Collection, type ICollection } from '../collections/collection.entity.ts';

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
      const [kind, id] = pointer.type === 'space' ? (['space', pointer.space] as const) : (['collection', pointer.collection] as const);
      const rows = await sql<{ parent_id: string | null }>(
        em,
        `select parent_id from :schema.${kind} where id = ? and organization_id = ?${kind === 'space' ? ' and deleted_at is null' : ''}`,
        [id, req.organizationId],
      );
      if (!rows[0]) throw invalid(`${field}: no ${kind} ${id} in this organization`);
      parentId = rows[0].parent_id;
    }
  }
  if (parentId === null) return { parentId, collection: null };
  const collection = await em.findOne(Collection, { id: parentId, organizationId: req.organizationId });
  if (!collection) throw invalid(`parent: no collection ${parentId} in this organization`);
  return { parentId, collection };
}
