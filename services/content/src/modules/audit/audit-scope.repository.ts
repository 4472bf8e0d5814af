import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '@quire/kit';

/**
 * The organization of a content mutation whose audit record found none of its own (a change request's content,
 * a review request, a reply edited: no event naming it): the space's, else the collection's, named by the
 * call's input. Deleted spaces included (a change to one in the trash is still its organization's).
 */
export async function auditOrganizationOf(em: EntityManager, input: Record<string, unknown>): Promise<string | null> {
  const spaceId = typeof input.spaceId === 'string' ? input.spaceId : null;
  const collectionId = typeof input.collectionId === 'string' ? input.collectionId : null;
  if (!spaceId && !collectionId) return null;
  const [row] = await sql<{ organization_id: string | null }>(
    em,
    `select coalesce((select organization_id from :schema.space where id = ?), (select organization_id from :schema.collection where id = ?)) as organization_id`,
    [spaceId, collectionId],
  );
  return row?.organization_id ?? null;
}
