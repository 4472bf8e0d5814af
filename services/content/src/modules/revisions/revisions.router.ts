import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadRevisionHistory } from './revision-history.loader.ts';
import { presentRevisions } from './revision-history.presenter.ts';

export const revisionProcedures = {
  listRevisionsInSpace: implement(ops.listRevisionsInSpace, async ({ input, ctx }) => {
    const { space, page } = await loadRevisionHistory(ctx, input);
    return { ...page, items: await presentRevisions(ctx, space, page.items) };
  }),
};
