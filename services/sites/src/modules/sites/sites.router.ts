import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { siteCreator } from '../../commands/site-creator.ts';
import { siteDeleter } from '../../commands/site-deleter.ts';
import { sitePublisher } from '../../commands/site-publisher.ts';
import { siteUpdater } from '../../commands/site-updater.ts';
import { createSpaceFor, requireSpaces } from '../spaces/content-spaces.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { Site, type ISite } from './site.entity.ts';
import { loadSiteFor } from './site.loader.ts';
import { organizationSitesPolicy } from './site.policy.ts';
import { presentSite, type PresentContext } from './site.presenter.ts';
import { siteRepository } from './site.repository.ts';
import type { EntityManager } from '@quire/kit';

/** A site with its count of visible site spaces. */
async function present(ctx: PresentContext & { em: EntityManager }, site: ISite) {
  const counts = await siteRepository.siteSpaceCounts(ctx.em, [site.id]);
  return presentSite(ctx, site, counts.get(site.id) ?? 0);
}

export const siteProcedures = {
  listSites: implement(ops.listSites, async ({ input, ctx }) => {
    organizationSitesPolicy.assert(ctx.actor, input, 'list');
    const where = await siteRepository.listWhere(ctx.em, input.organizationId, input);
    const page = await paginate(ctx.em, Site, where, { createdAt: 'desc', id: 'desc' }, input, (s) => s);
    const counts = await siteRepository.siteSpaceCounts(ctx.em, page.items.map((s) => s.id));
    return { ...page, items: page.items.map((s) => presentSite(ctx, s, counts.get(s.id) ?? 0)) };
  }),

  createSite: implement(ops.createSite, async ({ input, ctx }) => {
    organizationSitesPolicy.assert(ctx.actor, input, 'create');
    const title = input.title ?? 'Untitled site';
    const spaces = input.spaces === 'new' ? [await createSpaceFor(ctx, input.organizationId, title)] : await requireSpaces(ctx, input.organizationId, input.spaces ?? [], 'spaces');
    const site = await siteCreator(ctx.em, { organizationId: input.organizationId, type: input.type ?? 'basic', title, visibility: input.visibility ?? 'public', spaces });
    return presentSite(ctx, site, new Set(spaces.map((s) => s.id)).size);
  }),

  getSiteById: implement(ops.getSiteById, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    return present(ctx, site);
  }),

  updateSiteById: implement(ops.updateSiteById, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'update', { lock: true });
    const tree = await SiteTree.load(ctx.em, site.id);
    return present(ctx, await siteUpdater(ctx.em, { ...input, site, tree }));
  }),

  deleteSiteById: implement(ops.deleteSiteById, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'delete');
    siteDeleter(ctx.em, { site });
  }),

  publishSite: implement(ops.publishSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'update');
    return present(ctx, sitePublisher(ctx.em, { site, published: true }));
  }),

  unpublishSite: implement(ops.unpublishSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'update');
    return present(ctx, sitePublisher(ctx.em, { site, published: false }));
  }),

  /** Members with a role read every site of their organization; guests none. */
  countMemberSites: implement(ops.countMemberSites, async ({ input, ctx }) => {
    const total = input.members.some((m) => m.role !== null) ? await siteRepository.countInOrganization(ctx.em, input.organizationId) : 0;
    return { counts: Object.fromEntries(input.members.map((m) => [m.userId, m.role === null ? 0 : total])) };
  }),
};
