import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { siteSpaceAdder, siteSpaceDeleter, siteSpaceUpdater } from '../../commands/site-space-commands.ts';
import { structureSorter } from '../../commands/structure-sorter.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import { requireSpaceIfGiven, requireSpaces } from '../spaces/content-spaces.ts';
import { loadShownSiteSpaces, loadSiteSpaceFor, loadSiteStructureFor, siteSpacePosition } from './structure.loader.ts';
import { presentSiteSpace, presentSiteSpaceById, structureView } from './structure.presenter.ts';

export const siteSpaceProcedures = {
  /** In structure order (see `loadShownSiteSpaces`). */
  listSiteSpaces: implement(ops.listSiteSpaces, async ({ input, ctx }) => {
    const { site, tree, page } = await loadShownSiteSpaces(ctx, input);
    const view = await structureView(ctx, site, tree, page.items, await resolveShareKey(ctx, site, input.shareKey));
    return { ...page, items: page.items.map((t) => presentSiteSpace(ctx, view, t)) };
  }),

  addSpaceToSite: implement(ops.addSpaceToSite, async ({ input, ctx }) => {
    const { site, tree } = await loadSiteStructureFor(ctx, input);
    const [space] = await requireSpaces(ctx, site.organizationId, [input.spaceId], 'spaceId');
    const created = await siteSpaceAdder(ctx.em, {
      site,
      tree,
      level: input.sectionId ?? tree.defaultLevel,
      space: space!,
    });
    return presentSiteSpaceById(ctx, site, created.id);
  }),

  updateSiteSpaceById: implement(ops.updateSiteSpaceById, async ({ input, ctx }) => {
    const { site, tree, siteSpace } = await loadSiteSpaceFor(ctx, input);
    const space = await requireSpaceIfGiven(ctx, site.organizationId, input.spaceId, 'spaceId');
    await siteSpaceUpdater(ctx.em, { site, tree, siteSpace, path: input.path, condition: input.condition, space });
    return presentSiteSpaceById(ctx, site, siteSpace.id);
  }),

  deleteSiteSpaceById: implement(ops.deleteSiteSpaceById, async ({ input, ctx }) => {
    siteSpaceDeleter(ctx.em, await loadSiteSpaceFor(ctx, input));
  }),

  /** Deprecated: `sortSiteStructure` with a site space pointer. */
  moveSiteSpace: implement(ops.moveSiteSpace, async ({ input, ctx }) => {
    const { site, tree, siteSpace } = await loadSiteSpaceFor(ctx, input);
    const position = siteSpacePosition(input.position);
    structureSorter(ctx.em, { site, tree, item: { type: 'site-space', id: siteSpace.id }, position });
    return presentSiteSpaceById(ctx, site, siteSpace.id);
  }),
};
