import { Events, SpaceTitleSchema } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Revision, Space, type ISpace } from '../modules/spaces/space.entity.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { reusableContentsOf } from '../modules/revisions/revision-tree.ts';
import { revisionWriter } from './revision-writer.ts';

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
 * mode, default level) and its current content (pages and files) as the copy's first revision (no history: GitBook
 * does not copy revisions either). Counters start at zero. `space.created` carries `duplicatedFrom`.
 */
export async function spaceDuplicator(
  em: EntityManager,
  { source, now = new Date() }: SpaceDuplicatorProps,
): Promise<ISpace> {
  const order = await placeInTree(em, {
    organizationId: source.organizationId,
    parentId: source.parentId ?? null,
    position: { after: { type: 'space', space: source.id } },
  });
  const current = await revisionRepository.loadTree(em, await em.findOneOrFail(Revision, { id: source.revisionId }));
  const id = newId();
  // The copy's first revision is a snapshot of the source's current content (pages, documents and files are shared, not copied).
  const { revision } = await revisionWriter(em, {
    spaceId: id,
    base: null,
    parents: [],
    type: 'edits',
    createdBy: null,
    pages: current.pages,
    files: current.files,
    reusableContents: reusableContentsOf(current),
    now,
  });
  const copy = em.create(Space, {
    id,
    organizationId: source.organizationId,
    parentId: source.parentId,
    order,
    title: duplicateTitle(source.title),
    emoji: source.emoji,
    icon: source.icon,
    visibility: source.visibility,
    editMode: source.editMode,
    defaultLevel: source.defaultLevel ?? null,
    mergeRules: source.mergeRules ?? { type: 'inherit' },
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
