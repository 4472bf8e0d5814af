import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadReusableContent, loadReusableContentDocument } from './reusable-content.loader.ts';
import { presentReusableContent, presentReusableContentDocument } from './reusable-content.presenter.ts';

/** GitBook's reusable content reads: a reusable content of the live revision, a change request's or any revision's. */
export const reusableContentProcedures = {
  getReusableContentById: implement(ops.getReusableContentById, async ({ input, ctx }) => {
    const { record, git } = await loadReusableContent(ctx, input);
    return presentReusableContent(record, git);
  }),
  getReusableContentInChangeRequestById: implement(
    ops.getReusableContentInChangeRequestById,
    async ({ input, ctx }) => {
      const { record, git } = await loadReusableContent(ctx, input);
      return presentReusableContent(record, git);
    },
  ),
  getReusableContentInRevisionById: implement(ops.getReusableContentInRevisionById, async ({ input, ctx }) => {
    const { record, git } = await loadReusableContent(ctx, input);
    return presentReusableContent(record, git);
  }),
  getReusableContentDocumentInRevisionById: implement(
    ops.getReusableContentDocumentInRevisionById,
    async ({ input, ctx }) => presentReusableContentDocument(await loadReusableContentDocument(ctx, input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
