import { Events, SpaceTitleSchema } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Revision, Space, type ISpace } from '../modules/spaces/space.entity.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';

export interface SpaceDuplicatorProps {
  source: ISpace;
  now?: Date;
}

/** GitBook names a duplicate "Copy of <title>" (cut to the 50-character title limit, never inside a character). */
export function duplicateTitle(title: string): string {
  const max = SpaceTitleSchema.maxLength ?? 50;
  const chars = Array.from(`Copy of ${title}`);
  return chars.length > max ? chars.slice(0, max).join('') : chars.join('');
}

/**
 * A new space right after the source, in the same parent, with its settings (emoji, icon, visibility, edit
 * mode, default level) and a copy of its current content as the copy's first revision (no history: GitBook
 * does not copy revisions either). Counters start at zero. `space.created` carries `duplicatedFrom`.
 */
export async function spaceDuplicator(em: EntityManager, { source, now = new Date() }: SpaceDuplicatorProps): Promise<ISpace> {
  const position = await placeInTree(em, {
    organizationId: source.organizationId,
    parentId: source.parentId ?? null,
    position: { after: { type: 'space', space: source.id } },
  });
  const current = await em.findOneOrFail(Revision, { id: source.revisionId });
  const id = newId();
  const revision = em.create(Revision, { id: newId(), spaceId: id, parents: [], type: current.type, createdAt: now });
  const copy = em.create(Space, {
    id,
    organizationId: source.organizationId,
    parentId: source.parentId,
    position,
    title: duplicateTitle(source.title),
    emoji: source.emoji,
    icon: source.icon,
    visibility: source.visibility,
    editMode: source.editMode,
    defaultLevel: source.defaultLevel ?? null,
    revisionId: revision.id,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  });
  recordEvent(em, Events.spaceCreated, {
    space: copy.id,
    organization: copy.organizationId,
    title: copy.title,
    duplicatedFrom: source.id,
    ...(copy.parentId ? { parent: copy.parentId } : {}),
  });
  return copy;
}
