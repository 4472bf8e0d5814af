import type { EntityManager } from '@quire/kit';
import { conflictsIn } from '@quire/document/model';
import { inTreeOrder } from '../merge/tree.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import type { PageRecord } from '../revisions/revision-tree.ts';

type Pages = ReadonlyMap<string, PageRecord>;

/**
 * The pages of `head` that hold at least one conflict block, in reading order. Only the pages whose document
 * differs from `against` are read: pass a main revision (the space's content never holds a conflict block, as a
 * merge refuses them), so that only the change request's own changes are looked at. `changed`: the ids that may
 * differ between the two (`revisionRepository.changedBetween`), so that only those are looked at (what the change
 * request changed, not the size of its tree); without it every page of `head` is. The tree is put in reading order
 * only when a page holds a conflict block.
 */
export async function pagesWithConflictBlocks(
  em: EntityManager,
  head: Pages,
  against: Pages,
  changed?: ReadonlySet<string> | null,
): Promise<PageRecord[]> {
  const candidates: PageRecord[] = [];
  const look = (p: PageRecord | undefined) => {
    if (p && p.documentHash !== null && against.get(p.id)?.documentHash !== p.documentHash) candidates.push(p);
  };
  if (changed) for (const id of changed) look(head.get(id));
  else for (const p of head.values()) look(p);
  const texts = await documentRepository.getMany(
    em,
    candidates.map((p) => p.documentHash!),
  );
  const blocked = new Set(candidates.flatMap((p) => (conflictsIn(texts.get(p.documentHash!) ?? '') > 0 ? [p.id] : [])));
  return blocked.size ? inTreeOrder(head).flatMap((p) => (blocked.has(p.id) ? [head.get(p.id)!] : [])) : [];
}

/** How a page is named in a message: its title and its id. */
export const pageNames = (pages: readonly { id: string; title: string }[]) =>
  pages.map((p) => `"${p.title}" (${p.id})`).join(', ');
