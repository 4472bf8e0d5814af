import { notFound } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import type { PageRecord, RevisionTree } from '../revisions/revision-tree.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import type { SearchedSpace } from '../search/search.loader.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { spaceRepository } from '../spaces/space.repository.ts';

type Ctx = Pick<ContentContext, 'em'>;

/**
 * What the sites service asks for (its `internal` operations: it decided who may read the site, and asks only for
 * the spaces the site publishes): a live space and its live revision's tree (404 for a deleted one).
 */
export async function loadPublishedSpace(ctx: Ctx, spaceId: string): Promise<{ space: ISpace; tree: RevisionTree }> {
  const space = await spaceRepository.findById(ctx.em, spaceId);
  if (!space || space.deletedAt) throw notFound('Space');
  return { space, tree: await revisionRepository.treeInSpace(ctx.em, space.id, space.revisionId) };
}

/** The document pages among `pageIds` of a revision (others left out), and the markdown of each, by hash. */
export async function loadPublishedDocuments(
  ctx: Ctx,
  input: { spaceId: string; revisionId: string; pageIds: string[] },
): Promise<{ pages: PageRecord[]; texts: Map<string, string> }> {
  const tree = await revisionRepository.treeInSpace(ctx.em, input.spaceId, input.revisionId);
  const pages = input.pageIds.flatMap((id) => {
    const page = tree.pages.get(id);
    return page?.kind === 'document' ? [page] : [];
  });
  const hashes = pages.flatMap((p) => (p.documentHash ? [p.documentHash] : []));
  const texts = hashes.length ? await documentRepository.getMany(ctx.em, [...new Set(hashes)]) : new Map();
  return { pages, texts };
}

/** The live spaces among `spaceIds` (deleted or unknown ones left out), in the order given. */
export async function loadPublishedSpaces(ctx: Ctx, spaceIds: string[]): Promise<SearchedSpace[]> {
  const spaces = await Promise.all(spaceIds.map((id) => spaceRepository.findById(ctx.em, id)));
  return spaces.flatMap((s) =>
    s && !s.deletedAt ? [{ id: s.id, title: s.title, organizationId: s.organizationId }] : [],
  );
}
