import { ops } from '@quire/contracts';
import { presentPublishedCustomizations } from '../customization/customization.presenter.ts';
import { implement } from '../../trpc.ts';
import { structureSorter } from '../../commands/structure-sorter.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import { presentSite } from '../sites/site.presenter.ts';
import { loadPublishedSiteFor, loadStructureOf } from './structure.loader.ts';
import { presentStructure, presentStructureItem, structureView } from './structure.presenter.ts';

export const structureProcedures = {
  getSiteStructure: implement(ops.getSiteStructure, async ({ input, ctx }) => {
    const { site, tree } = await loadStructureOf(ctx, input, 'view');
    return presentStructure(
      ctx,
      await structureView(ctx, site, tree, tree.shown, await resolveShareKey(ctx, site, input.shareKey)),
    );
  }),

  sortSiteStructure: implement(ops.sortSiteStructure, async ({ input, ctx }) => {
    const { site, tree } = await loadStructureOf(ctx, input, 'editStructure');
    structureSorter(ctx.em, { site, tree, item: input.item, position: input.position });
    return presentStructureItem(ctx, site, input.item);
  }),

  /** What the site's audience reaches (see `loadPublishedSiteFor`). */
  getPublishedContentSite: implement(ops.getPublishedContentSite, async ({ input, ctx }) => {
    const { site, facts, shareKey, tree, shown, viewer, readerView } = await loadPublishedSiteFor(ctx, input);
    const view = await structureView({ ...ctx, actor: viewer }, site, tree, shown, shareKey, { readerView });
    return {
      object: 'published-content-site' as const,
      site: presentSite(ctx, site, tree.spaces.filter((t) => !t.hidden).length, facts.grants ?? [], shareKey),
      structure: presentStructure(ctx, view),
      customizations: presentPublishedCustomizations(site, shown),
      // Quire's integrations run no code on sites: no script to load.
      scripts: [],
    };
  }),
};
