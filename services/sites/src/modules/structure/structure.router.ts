import { ops } from '@quire/contracts';
import { notFound } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { structureSorter } from '../../commands/structure-sorter.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { presentSite } from '../sites/site.presenter.ts';
import { SiteTree } from './site-tree.ts';
import { presentSection, presentSiteSpace, presentStructure, structureView } from './structure.presenter.ts';

export const structureProcedures = {
  getSiteStructure: implement(ops.getSiteStructure, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    const tree = await SiteTree.load(ctx.em, site.id);
    return presentStructure(ctx, await structureView(ctx, site, tree, tree.shown, await resolveShareKey(ctx, site, input.shareKey)));
  }),

  sortSiteStructure: implement(ops.sortSiteStructure, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'editStructure', { lock: true });
    structureSorter(ctx.em, { site, tree: await SiteTree.load(ctx.em, site.id), item: input.item, position: input.position });
    const tree = await SiteTree.load(ctx.em, site.id);
    const view = await structureView(ctx, site, tree, tree.spaces, null);
    if (input.item.type === 'site-section') return presentSection(ctx, view, tree.section(input.item.id)!);
    return presentSiteSpace(ctx, view, tree.siteSpace(input.item.id)!);
  }),

  /**
   * What the site's audience reaches: 404 while it is not published, and for a `share-link` site unless
   * `shareKey` is the key of one of its active links (its URLs then carry the key).
   */
  getPublishedContentSite: implement(ops.getPublishedContentSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    if (!site.published) throw notFound('Published site');
    const shareKey = await resolveShareKey(ctx, site, input.shareKey);
    if (site.visibility === 'share-link' && !shareKey) throw notFound('Published site (a share-link site opens with the key of an active share link)');
    const tree = await SiteTree.load(ctx.em, site.id);
    const view = await structureView(ctx, site, tree, tree.shown, shareKey);
    return { object: 'published-content-site' as const, site: presentSite(ctx, site, tree.spaces.filter((t) => !t.hidden).length, shareKey), structure: presentStructure(ctx, view) };
  }),
};
