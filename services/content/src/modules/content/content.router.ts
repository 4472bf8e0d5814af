import { ops, type AnyOperation, type List } from '@quire/contracts';
import { invalid } from '@quire/kit';
import { implement, type ContentContext } from '../../trpc.ts';
import { diffTrees, limitChanges } from '../merge/index.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import type { RevisionFile } from '@quire/contracts';
import { loadRevisionFor, type RevisionSelector } from './content.loader.ts';
import { fileById, pageById, pageByPath, presentFile, presentPageAt, presentPages, presentRevision } from './content.presenter.ts';
import { pageDocument } from './document-format.ts';

type Ctx = ContentContext;
type PageInput = RevisionSelector & { format?: 'markdown' | 'document' | undefined };

/** The reads of a revision's content, each written once and served for the space's, a change request's and any revision. */
const read = {
  revision: async (ctx: Ctx, input: RevisionSelector) => {
    const { space, tree } = await loadRevisionFor(ctx, input);
    return presentRevision(ctx, tree, space);
  },
  pages: async (ctx: Ctx, input: RevisionSelector) => {
    const { space, tree } = await loadRevisionFor(ctx, input);
    return { pages: presentPages(ctx, tree, space) };
  },
  pageById: async (ctx: Ctx, input: PageInput & { pageId: string }) => {
    const { space, tree } = await loadRevisionFor(ctx, input);
    const page = pageById(tree, input.pageId);
    return presentPageAt(ctx, tree, space, page, await pageDocument(ctx.em, page, input.format));
  },
  pageByPath: async (ctx: Ctx, input: PageInput & { pagePath: string }) => {
    const { space, tree } = await loadRevisionFor(ctx, input);
    const page = pageByPath(tree, input.pagePath);
    return presentPageAt(ctx, tree, space, page, await pageDocument(ctx.em, page, input.format));
  },
  files: async (ctx: Ctx, input: RevisionSelector & { page?: string | undefined; limit?: number | undefined }): Promise<List<RevisionFile>> => {
    const { tree } = await loadRevisionFor(ctx, input);
    const all = [...tree.files.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
    // Keyset over (createdAt, id) of the immutable revision: the cursor is the last file id of the page.
    let start = 0;
    if (input.page !== undefined) {
      const after = all.findIndex((f) => f.id === Buffer.from(input.page!, 'base64url').toString('utf8'));
      if (after < 0) throw invalid('Invalid `page`: not a cursor of this list');
      start = after + 1;
    }
    const limit = input.limit ?? 50;
    const items = all.slice(start, start + limit);
    const more = start + limit < all.length && items.length > 0;
    return { count: all.length, items: items.map((f) => presentFile(ctx, f)), ...(more ? { next: { page: Buffer.from(items.at(-1)!.id).toString('base64url') } } : {}) };
  },
  file: async (ctx: Ctx, input: RevisionSelector & { fileId: string }) => {
    const { tree } = await loadRevisionFor(ctx, input);
    return presentFile(ctx, fileById(tree, input.fileId));
  },
};

const em = (ctx: Ctx) => ctx.em;

export const contentProcedures = {
  getCurrentRevision: implement(ops.getCurrentRevision, ({ input, ctx }) => read.revision(ctx, input)),
  getRevisionOfChangeRequestById: implement(ops.getRevisionOfChangeRequestById, ({ input, ctx }) => read.revision(ctx, input)),
  getRevisionById: implement(ops.getRevisionById, ({ input, ctx }) => read.revision(ctx, input)),
  listPages: implement(ops.listPages, ({ input, ctx }) => read.pages(ctx, input)),
  listPagesInChangeRequest: implement(ops.listPagesInChangeRequest, ({ input, ctx }) => read.pages(ctx, input)),
  listPagesInRevisionById: implement(ops.listPagesInRevisionById, ({ input, ctx }) => read.pages(ctx, input)),
  getPageById: implement(ops.getPageById, ({ input, ctx }) => read.pageById(ctx, input)),
  getPageInChangeRequestById: implement(ops.getPageInChangeRequestById, ({ input, ctx }) => read.pageById(ctx, input)),
  getPageInRevisionById: implement(ops.getPageInRevisionById, ({ input, ctx }) => read.pageById(ctx, input)),
  getPageByPath: implement(ops.getPageByPath, ({ input, ctx }) => read.pageByPath(ctx, input)),
  getPageInChangeRequestByPath: implement(ops.getPageInChangeRequestByPath, ({ input, ctx }) => read.pageByPath(ctx, input)),
  getPageInRevisionByPath: implement(ops.getPageInRevisionByPath, ({ input, ctx }) => read.pageByPath(ctx, input)),
  listFiles: implement(ops.listFiles, ({ input, ctx }) => read.files(ctx, input)),
  listFilesInChangeRequestById: implement(ops.listFilesInChangeRequestById, ({ input, ctx }) => read.files(ctx, input)),
  listFilesInRevisionById: implement(ops.listFilesInRevisionById, ({ input, ctx }) => read.files(ctx, input)),
  getFileById: implement(ops.getFileById, ({ input, ctx }) => read.file(ctx, input)),
  getFileInChangeRequestById: implement(ops.getFileInChangeRequestById, ({ input, ctx }) => read.file(ctx, input)),
  getFileInRevisionById: implement(ops.getFileInRevisionById, ({ input, ctx }) => read.file(ctx, input)),
  getRevisionSemanticChanges: implement(ops.getRevisionSemanticChanges, async ({ input, ctx }) => {
    const { tree } = await loadRevisionFor(ctx, input);
    const parentId = tree.revision.parents[0];
    const parent = parentId ? await revisionRepository.treeInSpace(em(ctx), input.spaceId, parentId) : undefined;
    const changes = await diffTrees(parent?.pages ?? new Map(), tree.pages, (hash) => documentRepository.get(em(ctx), hash));
    return limitChanges(changes, input.limit ?? 1000);
  }),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
