import { ops } from '@quire/contracts';
import { pageOfList } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { sectionCreator, sectionDeleter, sectionUpdater } from '../../commands/section-commands.ts';
import { structureSorter } from '../../commands/structure-sorter.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import { requireSpaces } from '../spaces/content-spaces.ts';
import { loadSectionFor, loadStructureOf, sectionPosition } from './structure.loader.ts';
import { presentSection, presentSectionById, structureView } from './structure.presenter.ts';

export const sectionProcedures = {
  listSiteSections: implement(ops.listSiteSections, async ({ input, ctx }) => {
    const { site, tree } = await loadStructureOf(ctx, input, 'view');
    const page = pageOfList(tree.sections, (s) => [tree.navKey(s), s.id], input);
    const view = await structureView(
      ctx,
      site,
      tree,
      page.items.flatMap((s) => tree.visibleIn(s.id)),
      await resolveShareKey(ctx, site, input.shareKey),
    );
    return { ...page, items: page.items.map((s) => presentSection(ctx, view, s)) };
  }),

  addSectionToSite: implement(ops.addSectionToSite, async ({ input, ctx }) => {
    const { site, tree } = await loadStructureOf(ctx, input, 'editStructure');
    const [space] = await requireSpaces(ctx, site.organizationId, [input.spaceId], 'spaceId');
    const section = await sectionCreator(ctx.em, {
      site,
      tree,
      space: space!,
      title: input.title,
      icon: input.icon,
      siteSectionGroupId: input.siteSectionGroupId,
    });
    return presentSectionById(ctx, site, section.id);
  }),

  updateSiteSectionById: implement(ops.updateSiteSectionById, async ({ input, ctx }) => {
    const { site, tree, section } = await loadSectionFor(ctx, input);
    sectionUpdater(ctx.em, { ...input, site, tree, section });
    return presentSectionById(ctx, site, section.id);
  }),

  deleteSiteSectionById: implement(ops.deleteSiteSectionById, async ({ input, ctx }) => {
    const { site, tree, section } = await loadSectionFor(ctx, input);
    sectionDeleter(ctx.em, { site, tree, section });
  }),

  /** Deprecated: `sortSiteStructure` with a section pointer. */
  moveSiteSection: implement(ops.moveSiteSection, async ({ input, ctx }) => {
    const { site, tree, section } = await loadSectionFor(ctx, input);
    const position = sectionPosition(input.position);
    structureSorter(ctx.em, { site, tree, item: { type: 'site-section', id: section.id }, position });
    return presentSectionById(ctx, site, section.id);
  }),
};
