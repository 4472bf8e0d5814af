import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { searchSpaces } from '../search/search.loader.ts';
import { loadPublishedDocuments, loadPublishedSpace, loadPublishedSpaces } from './published-content.loader.ts';
import {
  presentPublishedDocuments,
  presentPublishedHits,
  presentPublishedRevision,
} from './published-content.presenter.ts';

/**
 * What published sites render, for the sites service only (`internal`: a service actor, never routed by the
 * gateway). Sites decides who may read a site and asks only for the spaces the site publishes.
 */
export const publishedContentProcedures = {
  getPublishedRevision: implement(ops.getPublishedRevision, async ({ input, ctx }) => {
    const { space, tree } = await loadPublishedSpace(ctx, input.spaceId);
    return presentPublishedRevision(ctx, space, tree);
  }),

  listPublishedPageDocuments: implement(ops.listPublishedPageDocuments, async ({ input, ctx }) =>
    presentPublishedDocuments(await loadPublishedDocuments(ctx, input), input.format),
  ),

  searchPublishedContent: implement(ops.searchPublishedContent, async ({ input, ctx }) => {
    const spaces = await loadPublishedSpaces(ctx, input.spaceIds);
    return presentPublishedHits(
      ctx,
      spaces,
      await searchSpaces(ctx, spaces, { query: input.query, limit: input.limit }),
    );
  }),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
