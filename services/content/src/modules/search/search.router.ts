import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadSearchableSpace, loadSearchableSpaces, searchSpaces } from './search.loader.ts';
import { presentOrganizationSearch, presentSpaceSearch } from './search.presenter.ts';

/** Full-text search of the live content (read-only: the index is kept by the search consumer and job). */
export const searchProcedures = {
  searchSpaceContent: implement(ops.searchSpaceContent, async ({ input, ctx }) => {
    const space = await loadSearchableSpace(ctx, input.spaceId);
    return presentSpaceSearch(ctx, space, await searchSpaces(ctx, [space], input));
  }),
  searchOrganizationContent: implement(ops.searchOrganizationContent, async ({ input, ctx }) => {
    const spaces = await loadSearchableSpaces(ctx, input.organizationId);
    return presentOrganizationSearch(ctx, spaces, await searchSpaces(ctx, spaces, input));
  }),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
