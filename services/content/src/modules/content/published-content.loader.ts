import { notFound } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { loadIncludedDocuments } from '../reusable-content/reusable-content.loader.ts';
import { reusableContentsOf, type PageRecord, type RevisionTree } from '../revisions/revision-tree.ts';
import { storedDocument } from './document-format.ts';
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

export interface PublishedDocuments {
  spaceId: string;
  pages: PageRecord[];
  /** The markdown of each page, by hash. */
  texts: Map<string, string>;
  /** The JSON documents of the reusable contents the pages include, by id. */
  included: Map<string, Record<string, unknown>>;
}

/** The document pages among `pageIds` of a revision (others left out), their markdown, and what they include. */
export async function loadPublishedDocuments(
  ctx: Ctx,
  input: { spaceId: string; revisionId: string; pageIds: string[] },
): Promise<PublishedDocuments> {
  const tree = await revisionRepository.treeInSpace(ctx.em, input.spaceId, input.revisionId);
  const pages = input.pageIds.flatMap((id) => {
    const page = tree.pages.get(id);
    return page?.kind === 'document' ? [page] : [];
  });
  const hashes = pages.flatMap((p) => (p.documentHash ? [p.documentHash] : []));
  const texts = hashes.length ? await documentRepository.getMany(ctx.em, [...new Set(hashes)]) : new Map();
  const documents = reusableContentsOf(tree).size
    ? pages.map((p) => storedDocument(p.documentHash ?? '', texts.get(p.documentHash ?? '') ?? ''))
    : [];
  const at = { spaceId: input.spaceId, tree, evaluation: null };
  const included = await loadIncludedDocuments(ctx, at, documents as unknown as Record<string, unknown>[]);
  return { spaceId: input.spaceId, pages, texts, included };
}

/** The live spaces among `spaceIds` (deleted or unknown ones left out), in the order given. */
export async function loadPublishedSpaces(ctx: Ctx, spaceIds: string[]): Promise<SearchedSpace[]> {
  const spaces = await Promise.all(spaceIds.map((id) => spaceRepository.findById(ctx.em, id)));
  return spaces.flatMap((s) =>
    s && !s.deletedAt ? [{ id: s.id, title: s.title, organizationId: s.organizationId }] : [],
  );
}
