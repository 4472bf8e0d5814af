import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { siteCreator } from '../../commands/site-creator.ts';
import { siteDeleter } from '../../commands/site-deleter.ts';
import { sitePublisher } from '../../commands/site-publisher.ts';
import { siteUpdater } from '../../commands/site-updater.ts';
import { spacesForNewSite } from '../spaces/content-spaces.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { assertSitesAction, loadSiteFor, loadVisibleSites } from './site.loader.ts';
import { presentSite, presentSites, presentSiteWithCounts } from './site.presenter.ts';
import { siteRepository } from './site.repository.ts';
import { siteGrantRepository } from '../permissions/site-grant.repository.ts';
import { sitesVisibleTo } from '../permissions/site-visibility.ts';

export const siteProcedures = {
  listSites: implement(ops.listSites, async ({ input, ctx }) => presentSites(ctx, await loadVisibleSites(ctx, input))),

  createSite: implement(ops.createSite, async ({ input, ctx }) => {
    assertSitesAction(ctx, input, 'create');
    const title = input.title ?? 'Untitled site';
    const spaces = await spacesForNewSite(ctx, input.organizationId, title, input.spaces);
    const site = await siteCreator(ctx.em, {
      organizationId: input.organizationId,
      type: input.type ?? 'basic',
      title,
      visibility: input.visibility ?? 'public',
      spaces,
    });
    return presentSite(ctx, site, new Set(spaces.map((s) => s.id)).size, []);
  }),

  getSiteById: implement(ops.getSiteById, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    return presentSiteWithCounts(ctx, site);
  }),

  updateSiteById: implement(ops.updateSiteById, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'update', { lock: true });
    const tree = await SiteTree.load(ctx.em, site.id);
    return presentSiteWithCounts(ctx, await siteUpdater(ctx.em, { ...input, site, tree }));
  }),

  deleteSiteById: implement(ops.deleteSiteById, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'delete');
    siteDeleter(ctx.em, { site });
  }),

  publishSite: implement(ops.publishSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'update');
    return presentSiteWithCounts(ctx, sitePublisher(ctx.em, { site, published: true }));
  }),

  unpublishSite: implement(ops.unpublishSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'update');
    return presentSiteWithCounts(ctx, sitePublisher(ctx.em, { site, published: false }));
  }),

  /** Members with a role read every site of their organization, guests none; role overrides open or close sites to them. */
  countMemberSites: implement(ops.countMemberSites, async ({ input, ctx }) => {
    const total = await siteRepository.countInOrganization(ctx.em, input.organizationId);
    const overrides = await siteGrantRepository.ofOrganization(ctx.em, input.organizationId);
    return {
      counts: Object.fromEntries(
        input.members.map((m) => [m.userId, sitesVisibleTo(input.organizationId, m, total, overrides)]),
      ),
    };
  }),
};
