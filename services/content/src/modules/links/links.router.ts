import { ops, type AnyOperation } from '@quire/contracts';
import { implement, type ContentContext } from '../../trpc.ts';
import { fileById, loadRevisionFor, pageById, type RevisionSelector } from '../content/content.loader.ts';
import { brokenInOpenChangeRequests, pagesInTreeOrder, pagesReferencingFile, resolveLinks } from './links.loader.ts';
import { presentBacklinks, presentLinks } from './links.presenter.ts';

type Ctx = ContentContext;
type Paged = { page?: string | undefined; limit?: number | undefined };
type LinksInput = RevisionSelector & Paged & { status?: 'ok' | 'broken' | 'in-app' | undefined };

/** Links and backlinks of a revision's content, read-only: extracted per document, resolved per revision. */
const read = {
  spaceLinks: async (ctx: Ctx, input: LinksInput) => {
    const loaded = await loadRevisionFor(ctx, input);
    return presentLinks(
      loaded,
      await resolveLinks(ctx, loaded, pagesInTreeOrder(loaded.tree)),
      input,
      await brokenInOpenChangeRequests(ctx, loaded),
    );
  },
  pageLinks: async (ctx: Ctx, input: LinksInput & { pageId: string }) => {
    const loaded = await loadRevisionFor(ctx, input);
    const page = pageById(loaded.tree, input.pageId);
    return presentLinks(
      loaded,
      await resolveLinks(ctx, loaded, [page]),
      input,
      await brokenInOpenChangeRequests(ctx, loaded, page.id),
    );
  },
  backlinks: async (ctx: Ctx, input: RevisionSelector & Paged & { fileId: string }) => {
    const loaded = await loadRevisionFor(ctx, input);
    const file = fileById(loaded.tree, input.fileId);
    const pages = await pagesReferencingFile(ctx, loaded, file.id);
    return presentBacklinks(
      loaded,
      pages.map((p) => p.id),
      input,
    );
  },
};

export const linksProcedures = {
  listSpaceLinks: implement(ops.listSpaceLinks, ({ input, ctx }) => read.spaceLinks(ctx, input)),
  listPageLinks: implement(ops.listPageLinks, ({ input, ctx }) => read.pageLinks(ctx, input)),
  listPageLinksInChangeRequest: implement(ops.listPageLinksInChangeRequest, ({ input, ctx }) =>
    read.pageLinks(ctx, input),
  ),
  listFileBacklinks: implement(ops.listFileBacklinks, ({ input, ctx }) => read.backlinks(ctx, input)),
  listFileBacklinksInChangeRequest: implement(ops.listFileBacklinksInChangeRequest, ({ input, ctx }) =>
    read.backlinks(ctx, input),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
