import { ops, type AnyOperation } from '@quire/contracts';
import type { PageRequest } from '@quire/kit';
import { implement, type ContentContext } from '../../trpc.ts';
import { limitChanges } from '../merge/index.ts';
import {
  fileById,
  loadDocumentEvaluation,
  loadFileBlobs,
  loadFilesFor,
  loadRevisionFor,
  loadRevisionWithBlobsFor,
  loadSemanticChangesFor,
  pageById,
  pageByPath,
  documentPageById,
  type RevisionSelector,
} from './content.loader.ts';
import { presentDocument, presentFile, presentPageAt, presentPages } from './content.presenter.ts';
import { pageDocument } from './document-format.ts';
import { loadDereferencedRead } from '../reusable-content/reusable-content.loader.ts';
import { loadRevisionParts } from '../revisions/revision-history.loader.ts';
import { presentRevisionChanges, presentRevisions } from '../revisions/revision-history.presenter.ts';

type Ctx = ContentContext;
type PageInput = RevisionSelector & {
  format?: 'markdown' | 'document' | undefined;
  evaluated?: boolean | 'deterministic-only' | undefined;
};

/** The reads of a revision's content, each written once and served for the space's, a change request's and any revision. */
const read = {
  revision: async (ctx: Ctx, input: RevisionSelector) => {
    const { space, tree } = await loadRevisionFor(ctx, input);
    const parts = await loadRevisionParts(ctx, space.id, [tree]);
    return (await presentRevisions(ctx, space, parts))[0]!;
  },
  pages: async (ctx: Ctx, input: RevisionSelector) => {
    const { space, tree, blobs } = await loadRevisionWithBlobsFor(ctx, input);
    return { pages: presentPages(ctx, tree, space, blobs) };
  },
  pageById: async (ctx: Ctx, input: PageInput & { pageId: string }) => {
    const { space, tree, blobs } = await loadRevisionWithBlobsFor(ctx, input);
    const page = pageById(tree, input.pageId);
    const document = await pageDocument(ctx, page, input.format, loadDocumentEvaluation(ctx, input));
    return presentPageAt(ctx, tree, space, page, document, blobs);
  },
  pageByPath: async (ctx: Ctx, input: PageInput & { pagePath: string }) => {
    const { space, tree, blobs } = await loadRevisionWithBlobsFor(ctx, input);
    const page = pageByPath(tree, input.pagePath);
    const document = await pageDocument(ctx, page, input.format, loadDocumentEvaluation(ctx, input));
    return presentPageAt(ctx, tree, space, page, document, blobs);
  },
  pageDocument: async (
    ctx: Ctx,
    input: PageInput & { pageId: string; dereferenced?: boolean | 'reusable-contents' | undefined },
  ) => {
    const { space, tree } = await loadRevisionFor(ctx, input);
    const page = documentPageById(tree, input.pageId);
    const evaluation = loadDocumentEvaluation(ctx, input);
    const read = await pageDocument(ctx, page, 'document', evaluation);
    const at = { spaceId: space.id, tree, evaluation, dereferenced: input.dereferenced };
    return presentDocument(await loadDereferencedRead(ctx, at, read));
  },
  files: async (ctx: Ctx, input: RevisionSelector & PageRequest) => {
    const { list, git } = await loadFilesFor(ctx, input);
    return { ...list, items: await Promise.all(list.items.map((f) => presentFile(ctx, f, git.get(f.id)))) };
  },
  file: async (ctx: Ctx, input: RevisionSelector & { fileId: string }) => {
    const { space, tree } = await loadRevisionFor(ctx, input);
    const file = fileById(tree, input.fileId);
    return presentFile(ctx, file, (await loadFileBlobs(ctx, space.id, tree.revision.id)).get(file.id));
  },
};

export const contentProcedures = {
  getCurrentRevision: implement(ops.getCurrentRevision, ({ input, ctx }) => read.revision(ctx, input)),
  getRevisionOfChangeRequestById: implement(ops.getRevisionOfChangeRequestById, ({ input, ctx }) =>
    read.revision(ctx, input),
  ),
  getRevisionById: implement(ops.getRevisionById, ({ input, ctx }) => read.revision(ctx, input)),
  listPages: implement(ops.listPages, ({ input, ctx }) => read.pages(ctx, input)),
  listPagesInChangeRequest: implement(ops.listPagesInChangeRequest, ({ input, ctx }) => read.pages(ctx, input)),
  listPagesInRevisionById: implement(ops.listPagesInRevisionById, ({ input, ctx }) => read.pages(ctx, input)),
  getPageById: implement(ops.getPageById, ({ input, ctx }) => read.pageById(ctx, input)),
  getPageInChangeRequestById: implement(ops.getPageInChangeRequestById, ({ input, ctx }) => read.pageById(ctx, input)),
  getPageInRevisionById: implement(ops.getPageInRevisionById, ({ input, ctx }) => read.pageById(ctx, input)),
  getPageDocumentInRevisionById: implement(ops.getPageDocumentInRevisionById, ({ input, ctx }) =>
    read.pageDocument(ctx, input),
  ),
  getPageByPath: implement(ops.getPageByPath, ({ input, ctx }) => read.pageByPath(ctx, input)),
  getPageInChangeRequestByPath: implement(ops.getPageInChangeRequestByPath, ({ input, ctx }) =>
    read.pageByPath(ctx, input),
  ),
  getPageInRevisionByPath: implement(ops.getPageInRevisionByPath, ({ input, ctx }) => read.pageByPath(ctx, input)),
  listFiles: implement(ops.listFiles, ({ input, ctx }) => read.files(ctx, input)),
  listFilesInChangeRequestById: implement(ops.listFilesInChangeRequestById, ({ input, ctx }) => read.files(ctx, input)),
  listFilesInRevisionById: implement(ops.listFilesInRevisionById, ({ input, ctx }) => read.files(ctx, input)),
  getFileById: implement(ops.getFileById, ({ input, ctx }) => read.file(ctx, input)),
  getFileInChangeRequestById: implement(ops.getFileInChangeRequestById, ({ input, ctx }) => read.file(ctx, input)),
  getFileInRevisionById: implement(ops.getFileInRevisionById, ({ input, ctx }) => read.file(ctx, input)),
  getRevisionSemanticChanges: implement(ops.getRevisionSemanticChanges, async ({ input, ctx }) => {
    const { space, changes, mergedFrom } = await loadSemanticChangesFor(ctx, input);
    return presentRevisionChanges(ctx, space, limitChanges(changes, input.limit ?? 1000), mergedFrom);
  }),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
