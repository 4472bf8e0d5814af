import { ops } from '@quire/contracts';
import { invalid, notFound } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { siteSpaceAdder, siteSpaceDeleter, siteSpaceUpdater } from '../../commands/site-space-commands.ts';
import { structureSorter } from '../../commands/structure-sorter.ts';
import { assertConditionNamesAttributes, attributesOf } from '../adaptive/adaptive-schema.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { requireSpaces } from '../spaces/content-spaces.ts';
import { pageOf } from './page.ts';
import { SiteTree, type TreeSpace } from './site-tree.ts';
import { presentSiteSpace, structureView } from './structure.presenter.ts';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';

/** A site space as the caller sees it, from the site's current structure. */
async function presentOne(ctx: SitesContext, site: ISite, siteSpaceId: string) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const t = tree.siteSpace(siteSpaceId);
  if (!t) throw notFound('Site space');
  return presentSiteSpace(ctx, await structureView(ctx, site, tree, [t], null), t);
}

async function loadSiteSpace(ctx: SitesContext, input: { organizationId: string; siteId: string; siteSpaceId: string }) {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'editStructure', { lock: true });
  const tree = await SiteTree.load(ctx.em, site.id);
  const t = tree.siteSpace(input.siteSpaceId);
  if (!t) throw notFound('Site space');
  return { site, tree, siteSpace: t.entity };
}

export const siteSpaceProcedures = {
  /** In structure order (sections in order, then their site spaces); `default` picks the site's default site space, or the others. */
  listSiteSpaces: implement(ops.listSiteSpaces, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
    const tree = await SiteTree.load(ctx.em, site.id);
    const siteDefault = tree.siteDefault?.entity.id;
    const shown = input.default === undefined ? tree.shown : tree.shown.filter((t) => (t.entity.id === siteDefault) === input.default);
    const sectionOrder = new Map(tree.sections.map((s, i) => [s.id, i]));
    const page = pageOf(shown, (t: TreeSpace) => [sectionOrder.get(t.entity.sectionId ?? '') ?? -1, t.entity.position, t.entity.id], input);
    const view = await structureView(ctx, site, tree, page.items, await resolveShareKey(ctx, site, input.shareKey));
    return { ...page, items: page.items.map((t) => presentSiteSpace(ctx, view, t)) };
  }),

  addSpaceToSite: implement(ops.addSpaceToSite, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'editStructure', { lock: true });
    const tree = await SiteTree.load(ctx.em, site.id);
    if (input.sectionId !== undefined && !tree.section(input.sectionId)) throw invalid(`sectionId: no section ${input.sectionId} on this site`);
    const [space] = await requireSpaces(ctx, site.organizationId, [input.spaceId], 'spaceId');
    const created = await siteSpaceAdder(ctx.em, { site, tree, level: input.sectionId ?? tree.defaultLevel, space: space! });
    return presentOne(ctx, site, created.id);
  }),

  updateSiteSpaceById: implement(ops.updateSiteSpaceById, async ({ input, ctx }) => {
    const { site, tree, siteSpace } = await loadSiteSpace(ctx, input);
    if (typeof input.condition === 'string') assertConditionNamesAttributes(input.condition, attributesOf(site.adaptiveSchema), 'condition');
    const space = input.spaceId === undefined ? undefined : (await requireSpaces(ctx, site.organizationId, [input.spaceId], 'spaceId'))[0];
    await siteSpaceUpdater(ctx.em, { site, tree, siteSpace, path: input.path, condition: input.condition, space });
    return presentOne(ctx, site, siteSpace.id);
  }),

  deleteSiteSpaceById: implement(ops.deleteSiteSpaceById, async ({ input, ctx }) => {
    siteSpaceDeleter(ctx.em, await loadSiteSpace(ctx, input));
  }),

  /** Deprecated: `sortSiteStructure` with a site space pointer. */
  moveSiteSpace: implement(ops.moveSiteSpace, async ({ input, ctx }) => {
    const { site, tree, siteSpace } = await loadSiteSpace(ctx, input);
    const pointer = (p: { siteSpace: string } | undefined) => (p ? { type: 'site-space' as const, id: p.siteSpace } : undefined);
    const position = { before: pointer(input.position?.before), after: pointer(input.position?.after) };
    structureSorter(ctx.em, { site, tree, item: { type: 'site-space', id: siteSpace.id }, position });
    return presentOne(ctx, site, siteSpace.id);
  }),
};
