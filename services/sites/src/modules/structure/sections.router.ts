import { ops } from '@quire/contracts';
import { notFound } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { sectionCreator, sectionDeleter, sectionUpdater } from '../../commands/section-commands.ts';
import { structureSorter } from '../../commands/structure-sorter.ts';
import { assertConditionNamesAttributes, attributesOf } from '../adaptive/adaptive-schema.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { requireSpaces } from '../spaces/content-spaces.ts';
import { pageOf } from './page.ts';
import { SiteTree } from './site-tree.ts';
import { presentSection, structureView } from './structure.presenter.ts';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';

/** A section as the caller sees it, from the site's current structure. */
async function presentOne(ctx: SitesContext, site: ISite, sectionId: string) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const section = tree.section(sectionId);
  if (!section) throw notFound('Site section');
  return presentSection(ctx, await structureView(ctx, site, tree, tree.visibleIn(section.id), null), section);
}

async function loadSection(ctx: SitesContext, input: { organizationId: string; siteId: string; siteSectionId: string }) {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'editStructure', { lock: true });
  const tree = await SiteTree.load(ctx.em, site.id);
  const section = tree.section(input.siteSectionId);
  if (!section) throw notFound('Site section');
  return { site, tree, section };
}

export const sectionProcedures = {
  listSiteSections: implement(ops.listSiteSections, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    const tree = await SiteTree.load(ctx.em, site.id);
    const page = pageOf(tree.sections, (s) => [s.position, s.id], input);
    const view = await structureView(ctx, site, tree, page.items.flatMap((s) => tree.visibleIn(s.id)), await resolveShareKey(ctx, site, input.shareKey));
    return { ...page, items: page.items.map((s) => presentSection(ctx, view, s)) };
  }),

  addSectionToSite: implement(ops.addSectionToSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'editStructure', { lock: true });
    const [space] = await requireSpaces(ctx, site.organizationId, [input.spaceId], 'spaceId');
    const section = await sectionCreator(ctx.em, { site, tree: await SiteTree.load(ctx.em, site.id), space: space!, title: input.title, icon: input.icon });
    return presentOne(ctx, site, section.id);
  }),

  updateSiteSectionById: implement(ops.updateSiteSectionById, async ({ input, ctx }) => {
    const { site, tree, section } = await loadSection(ctx, input);
    if (typeof input.condition === 'string') assertConditionNamesAttributes(input.condition, attributesOf(site.adaptiveSchema), 'condition');
    sectionUpdater(ctx.em, { ...input, site, tree, section });
    return presentOne(ctx, site, section.id);
  }),

  deleteSiteSectionById: implement(ops.deleteSiteSectionById, async ({ input, ctx }) => {
    const { site, tree, section } = await loadSection(ctx, input);
    sectionDeleter(ctx.em, { site, tree, section });
  }),

  /** Deprecated: `sortSiteStructure` with a section pointer. */
  moveSiteSection: implement(ops.moveSiteSection, async ({ input, ctx }) => {
    const { site, tree, section } = await loadSection(ctx, input);
    const pointer = (p: { siteSection: string } | undefined) => (p ? { type: 'site-section' as const, id: p.siteSection } : undefined);
    const position = { before: pointer(input.position?.before), after: pointer(input.position?.after) };
    structureSorter(ctx.em, { site, tree, item: { type: 'site-section', id: section.id }, position });
    return presentOne(ctx, site, section.id);
  }),
};
