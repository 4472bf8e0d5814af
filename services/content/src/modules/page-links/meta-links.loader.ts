import type { ContentContext } from '../../trpc.ts';
import { documentPageById, loadRevisionFor, type RevisionSelector } from '../content/content.loader.ts';
import type { PageRecord } from '../revisions/revision-tree.ts';

/**
 * The document page whose meta links are asked for, in the revision the caller may read (a reader: the live one,
 * without hidden pages): 404 when there is no such page, or it is a group or a link (GitBook's meta links are a
 * document page's).
 */
export async function loadMetaLinksPage(
  ctx: Pick<ContentContext, 'em' | 'actor'>,
  input: RevisionSelector & { pageId: string },
): Promise<PageRecord> {
  const { tree } = await loadRevisionFor(ctx, input);
  return documentPageById(tree, input.pageId);
}
