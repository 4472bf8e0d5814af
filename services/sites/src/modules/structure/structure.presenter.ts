import type { Space, SiteSection as SiteSectionDto, SiteSpace as SiteSpaceDto, SiteStructure } from '@quire/contracts';
import type { ISite } from '../sites/site.entity.ts';
import { publishedUrl, type PresentContext } from '../sites/site.presenter.ts';
import { fetchSpaces } from '../spaces/content-spaces.ts';
import type { SitesContext } from '../../trpc.ts';
import { notFound } from '@quire/kit';
import { SiteTree, type TreeSpace } from './site-tree.ts';
import type { ISiteSection } from './structure.entity.ts';

/** What presenting a site's structure needs: the site, its tree, its spaces as the caller sees them, the share key that opened it. */
export interface StructureView {
  site: ISite;
  tree: SiteTree;
  spaces: Map<string, Space>;
  shareKey: string | null;
}

/** The view of `items`' spaces: one batched call to the content service, as the caller. */
export async function structureView(
  ctx: Pick<SitesContext, 'peers' | 'actor' | 'requestId'>,
  site: ISite,
  tree: SiteTree,
  items: TreeSpace[],
  shareKey: string | null,
): Promise<StructureView> {
  return {
    site,
    tree,
    spaces: await fetchSpaces(
      ctx,
      items.map((i) => i.entity.spaceId),
    ),
    shareKey,
  };
}

/** The URL segment of a section: none for the default section. */
const sectionSegments = (v: StructureView, section: ISiteSection | undefined) =>
  section && v.tree.defaultSection?.id !== section.id ? [section.path] : [];

export function presentSiteSpace(ctx: PresentContext, v: StructureView, t: TreeSpace): SiteSpaceDto {
  const s = t.entity;
  const level = s.sectionId ?? null;
  const isDefault = v.tree.effectiveDefault(level)?.entity.id === s.id;
  const section = level ? v.tree.section(level) : undefined;
  const space = v.spaces.get(s.spaceId);
  const url = publishedUrl(
    ctx.urls,
    v.site,
    [...sectionSegments(v, section), ...(isDefault ? [] : [s.path])],
    v.shareKey,
  );
  return {
    object: 'site-space',
    id: s.id,
    path: s.path,
    ...(s.sectionId ? { section: s.sectionId } : {}),
    ...(space ? { space } : {}),
    title: space?.title ?? t.projectedTitle ?? s.path,
    default: isDefault,
    ...(s.condition != null ? { condition: s.condition } : {}),
    urls: url ? { published: url } : {},
  };
}

export function presentSection(ctx: PresentContext, v: StructureView, section: ISiteSection): SiteSectionDto {
  const url = publishedUrl(ctx.urls, v.site, sectionSegments(v, section), v.shareKey);
  return {
    object: 'site-section',
    id: section.id,
    title: section.title,
    ...(section.description != null ? { description: section.description } : {}),
    default: v.tree.defaultSection?.id === section.id,
    path: section.path,
    ...(section.condition != null ? { condition: section.condition } : {}),
    ...(section.icon != null ? { icon: section.icon } : {}),
    siteSpaces: v.tree.visibleIn(section.id).map((t) => presentSiteSpace(ctx, v, t)),
    urls: url ? { published: url } : {},
  };
}

/** The structure: the sections with their visible site spaces, or the visible root site spaces. */
export function presentStructure(ctx: PresentContext, v: StructureView): SiteStructure {
  return v.tree.kind === 'sections'
    ? { type: 'sections', structure: v.tree.sections.map((s) => presentSection(ctx, v, s)) }
    : { type: 'siteSpaces', structure: v.tree.visibleIn(null).map((t) => presentSiteSpace(ctx, v, t)) };
}

/** A section as the caller sees it, from the site's current structure (read again: after a change). */
export async function presentSectionById(ctx: SitesContext & PresentContext, site: ISite, sectionId: string) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const section = tree.section(sectionId);
  if (!section) throw notFound('Site section');
  return presentSection(ctx, await structureView(ctx, site, tree, tree.visibleIn(section.id), null), section);
}

/** The section or site space a structure change moved, as the caller sees it in the site's current structure. */
export async function presentStructureItem(
  ctx: SitesContext & PresentContext,
  site: ISite,
  item: { type: 'site-section' | 'site-space'; id: string },
) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const view = await structureView(ctx, site, tree, tree.spaces, null);
  if (item.type === 'site-section') return presentSection(ctx, view, tree.section(item.id)!);
  return presentSiteSpace(ctx, view, tree.siteSpace(item.id)!);
}

/** A site space as the caller sees it, from the site's current structure (read again: after a change). */
export async function presentSiteSpaceById(ctx: SitesContext & PresentContext, site: ISite, siteSpaceId: string) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const t = tree.siteSpace(siteSpaceId);
  if (!t) throw notFound('Site space');
  return presentSiteSpace(ctx, await structureView(ctx, site, tree, [t], null), t);
}
