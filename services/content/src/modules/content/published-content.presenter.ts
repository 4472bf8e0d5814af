import { documentToMarkdown } from '@quire/document/model';
import { inlineReusableContents } from '../reusable-content/reusable-content-documents.ts';
import type { RevisionTree } from '../revisions/revision-tree.ts';
import type { SearchedSpace, SearchResults } from '../search/search.loader.ts';
import { presentPageHit } from '../search/search.presenter.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { presentFile, presentPages } from './content.presenter.ts';
import { storedDocument } from './document-format.ts';
import type { PublishedDocuments } from './published-content.loader.ts';

/** A published space's live revision: its pages, and its files by id. */
export async function presentPublishedRevision(
  ctx: Parameters<typeof presentPages>[0] & Parameters<typeof presentFile>[0],
  space: ISpace,
  tree: RevisionTree,
) {
  const files = [...tree.files.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    space: { id: space.id, organization: space.organizationId, title: space.title },
    revision: { id: tree.revision.id, createdAt: tree.revision.createdAt.toISOString() },
    pages: presentPages(ctx, tree, space),
    files: await Promise.all(files.map((f) => presentFile(ctx, f))),
  };
}

/**
 * The documents of published pages, as markdown or as JSON documents, with the reusable contents they include
 * expanded in place (what the site shows; a page's markdown is then written from its expanded document).
 */
export function presentPublishedDocuments(
  { spaceId, pages, texts, included }: PublishedDocuments,
  format: 'markdown' | 'document',
) {
  return {
    items: pages.map((p) => {
      const markdown = (p.documentHash && texts.get(p.documentHash)) || '';
      // Markdown without anything to expand is answered as stored, never converted.
      if (format === 'markdown' && !included.size) return { id: p.id, markdown };
      const stored = storedDocument(p.documentHash ?? '', markdown) as unknown as Record<string, unknown>;
      const document = inlineReusableContents(stored, spaceId, (id) => included.get(id));
      if (format === 'document') return { id: p.id, document };
      return { id: p.id, markdown: document === stored ? markdown : documentToMarkdown(document as never) };
    }),
  };
}

/** The page hits of a search of published spaces, each with its space. */
export function presentPublishedHits(
  ctx: Parameters<typeof presentPageHit>[0],
  spaces: SearchedSpace[],
  results: SearchResults,
) {
  const byId = new Map(spaces.map((s) => [s.id, s]));
  return {
    items: results.hits.map((hit) => ({ space: hit.spaceId, page: presentPageHit(ctx, byId.get(hit.spaceId)!, hit) })),
  };
}
