import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadComputedSource, loadDocumentById } from './document-reads.loader.ts';
import { presentJsonDocument } from './document-reads.presenter.ts';

/** Documents by id, and computed documents (none yet: a 400 naming the source). */
export const documentReadsProcedures = {
  getDocumentById: implement(ops.getDocumentById, async ({ input, ctx }) =>
    presentJsonDocument(await loadDocumentById(ctx, input)),
  ),
  getComputedDocument: implement(ops.getComputedDocument, async ({ input, ctx }) =>
    presentJsonDocument(await loadComputedSource(ctx, input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
