import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { lookupPublishedContent } from './published-content.resolver.ts';
import { searchSiteSpaces, siteSpacesInScope } from './site-search.ts';

export const publishedContentProcedures = {
  resolvePublishedContentByUrl: implement(ops.resolvePublishedContentByUrl, async ({ input, ctx }) =>
    lookupPublishedContent(ctx, {
      url: input.url,
      jwtToken: input.visitor?.jwtToken,
      unsignedClaims: input.visitor?.unsignedClaims,
      redirectOnError: input.redirectOnError,
    }),
  ),

  getPublishedContentByUrl: implement(ops.getPublishedContentByUrl, async ({ input, ctx }) =>
    lookupPublishedContent(ctx, {
      url: input.url,
      jwtToken: input.visitorAuthToken,
      redirectOnError: input.redirectOnError,
    }),
  ),

  /**
   * Members who read the site search what it shows: only its own site spaces, only the spaces they can read; a
   * reader (published-content token), only the site spaces its claims show it, as the site's search page does.
   */
  searchSiteContent: implement(ops.searchSiteContent, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    const siteSpaces = siteSpacesInScope(await SiteTree.load(ctx.em, site.id), input, ctx.actor);
    return searchSiteSpaces(ctx, siteSpaces, input.query, input.limit ?? 20);
  }),
};
