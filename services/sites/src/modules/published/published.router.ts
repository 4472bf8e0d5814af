import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { handlePublishedRequest } from './handler.ts';

/** gateway → sites: a reader's request to a published site, answered as a whole HTTP response. */
export const publishedProcedures = {
  getPublishedSitePage: implement(ops.getPublishedSitePage, ({ input, ctx }) => handlePublishedRequest(ctx, input)),
};
