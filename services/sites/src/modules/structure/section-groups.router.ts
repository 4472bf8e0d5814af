import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import {
  sectionGroupCreator,
  sectionGroupDeleter,
  sectionGroupUpdater,
} from '../../commands/section-group-commands.ts';
import { structureSorter } from '../../commands/structure-sorter.ts';
import { loadSectionGroupFor, loadSectionGroups, loadStructureOf, sectionGroupPosition } from './structure.loader.ts';
import { presentSectionGroup, presentSectionGroupById, structureView } from './structure.presenter.ts';

export const sectionGroupProcedures = {
  /** In navigation order: each group, then the groups in it. */
  listSiteSectionGroups: implement(ops.listSiteSectionGroups, async ({ input, ctx }) => {
    const { site, tree, page } = await loadSectionGroups(ctx, input);
    const view = await structureView(ctx, site, tree, tree.shown, null);
    return { ...page, items: page.items.map((g) => presentSectionGroup(ctx, view, g)) };
  }),

  addSectionGroupToSite: implement(ops.addSectionGroupToSite, async ({ input, ctx }) => {
    const { site, tree } = await loadStructureOf(ctx, input, 'editStructure');
    const group = sectionGroupCreator(ctx.em, {
      site,
      tree,
      title: input.title,
      icon: input.icon,
      parent: input.parent,
      sections: input.sections,
    });
    return presentSectionGroupById(ctx, site, group.id);
  }),

  updateSiteSectionGroupById: implement(ops.updateSiteSectionGroupById, async ({ input, ctx }) => {
    const { site, tree, group } = await loadSectionGroupFor(ctx, input);
    sectionGroupUpdater(ctx.em, { ...input, site, tree, group });
    return presentSectionGroupById(ctx, site, group.id);
  }),

  deleteSiteSectionGroupById: implement(ops.deleteSiteSectionGroupById, async ({ input, ctx }) => {
    sectionGroupDeleter(ctx.em, await loadSectionGroupFor(ctx, input));
  }),

  /** Deprecated: `sortSiteStructure` with a section group pointer. */
  moveSiteSectionGroup: implement(ops.moveSiteSectionGroup, async ({ input, ctx }) => {
    const { site, tree, group } = await loadSectionGroupFor(ctx, input);
    const position = sectionGroupPosition(input.position);
    structureSorter(ctx.em, { site, tree, item: { type: 'site-section-group', id: group.id }, position });
    return presentSectionGroupById(ctx, site, group.id);
  }),
};
