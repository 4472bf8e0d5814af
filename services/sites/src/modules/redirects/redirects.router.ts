import { ops, type SiteRedirectInputDestination } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { redirectCreator, redirectDeleter, redirectUpdater } from '../../commands/redirect-commands.ts';
import { redirectsBulkUpserter } from '../../commands/redirects-bulk-upserter.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { resolveDestination } from './redirect-destination.ts';
import { SiteRedirect } from './redirect.entity.ts';
import {
  loadDestination,
  loadRedirectFor,
  loadRedirectTarget,
  loadSiteForRedirects,
  loadSiteWithRoomFor,
  redirectsAddedBy,
} from './redirect.loader.ts';
import { presentRedirect } from './redirect.presenter.ts';
import { redirectRepository } from './redirect.repository.ts';

const ORDER = {
  createdAt: { createdAt: 'desc', id: 'desc' },
  updatedAt: { updatedAt: 'desc', id: 'desc' },
  source: { source: 'asc', id: 'asc' },
} as const;

/** A redirect's own fields in an input (all of them to create one, some to change one), with its destination. */
function redirectFields<
  I extends { source?: string; draft?: boolean; captureWildcard?: boolean; permanent?: boolean },
  D,
>(input: I, destination: D): Pick<I, 'source' | 'draft' | 'captureWildcard' | 'permanent'> & { destination: D } {
  return {
    source: input.source,
    draft: input.draft,
    captureWildcard: input.captureWildcard,
    permanent: input.permanent,
    destination,
  };
}

export const redirectProcedures = {
  createSiteRedirect: implement(ops.createSiteRedirect, async ({ input, ctx }) => {
    const site = await loadSiteWithRoomFor(ctx, input, 1);
    const destination = await resolveDestination(ctx, await SiteTree.load(ctx.em, site.id), input.destination);
    const fields = redirectFields(input, destination);
    return presentRedirect(await redirectCreator(ctx.em, { site, fields }));
  }),

  bulkUpsertSiteRedirects: implement(ops.bulkUpsertSiteRedirects, async ({ input, ctx }) => {
    const site = await loadSiteWithRoomFor(ctx, input, redirectsAddedBy(input.redirects));
    const tree = await SiteTree.load(ctx.em, site.id);
    const resolve = (d: SiteRedirectInputDestination, field: string) => resolveDestination(ctx, tree, d, field);
    return { results: await redirectsBulkUpserter(ctx.em, { site, items: input.redirects, resolve }) };
  }),

  listSiteRedirects: implement(ops.listSiteRedirects, async ({ input, ctx }) => {
    const site = await loadSiteForRedirects(ctx, input, 'view');
    const where = redirectRepository.listWhere(site.id, input);
    return paginate(ctx.em, SiteRedirect, where, ORDER[input.orderBy], input, presentRedirect);
  }),

  updateSiteRedirectById: implement(ops.updateSiteRedirectById, async ({ input, ctx }) => {
    const { redirect } = await loadRedirectFor(ctx, input, 'manage');
    const destination = await loadDestination(ctx, redirect.siteId, input.destination);
    const patch = redirectFields(input, destination);
    return presentRedirect(await redirectUpdater(ctx.em, { redirect, patch }));
  }),

  deleteSiteRedirectById: implement(ops.deleteSiteRedirectById, async ({ input, ctx }) => {
    // Deleting a redirect that is not there (any more) succeeds, as with GitBook (which answers 204 for it).
    const site = await loadSiteForRedirects(ctx, input, 'manage');
    await redirectDeleter(ctx.em, { siteId: site.id, id: input.siteRedirectId });
  }),

  /**
   * The live redirect a path follows, as the renderer asks when a path matches no page; its target as an
   * absolute URL.
   */
  getSiteRedirectBySource: implement(ops.getSiteRedirectBySource, async ({ input, ctx }) => {
    const { redirect, target } = await loadRedirectTarget(ctx, input);
    return { redirect: presentRedirect(redirect), target };
  }),
};
