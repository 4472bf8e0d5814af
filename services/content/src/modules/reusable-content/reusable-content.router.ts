import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadReusableContent } from './reusable-content.loader.ts';
import { presentReusableContent, presentReusableContentDocument } from './reusable-content.presenter.ts';

/** GitBook's reusable content reads: a documented 404 until Quire stores reusable content. */
export const reusableContentProcedures = {
  getReusableContentById: implement(ops.getReusableContentById, async ({ input, ctx }) =>
    presentReusableContent(await loadReusableContent(ctx, input)),
  ),
  getReusableContentInChangeRequestById: implement(ops.getReusableContentInChangeRequestById, async ({ input, ctx }) =>
    presentReusableContent(await loadReusableContent(ctx, input)),
  ),
  getReusableContentInRevisionById: implement(ops.getReusableContentInRevisionById, async ({ input, ctx }) =>
    presentReusableContent(await loadReusableContent(ctx, input)),
  ),
  getReusableContentDocumentInRevisionById: implement(
    ops.getReusableContentDocumentInRevisionById,
    async ({ input, ctx }) => presentReusableContentDocument(await loadReusableContent(ctx, input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
