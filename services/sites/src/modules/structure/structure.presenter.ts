import type {
  Space,
  SiteSection as SiteSectionDto,
  SiteSectionGroup as SiteSectionGroupDto,
  SiteSpace as SiteSpaceDto,
  SiteStructure,
} from '@quire/contracts';
import type { ISite } from '../sites/site.entity.ts';
import { publishedUrl, type PresentContext } from '../sites/site.presenter.ts';
import { fetchSpaces } from '../spaces/content-spaces.ts';
import type { SitesContext } from '../../trpc.ts';
import { notFound } from '@quire/kit';
import { SiteTree, type NavItem, type TreeSpace } from './site-tree.ts';
import type { ISiteSection, ISiteSectionGroup } from './structure.entity.ts';

/** What presenting a site's structure needs: the site, its tree, its spaces as the caller sees them, the share key that opened it. */
export interface StructureView {
  site: ISite;
  tree: SiteTree;
  spaces: Map<string, Space>;
  shareKey: string | null;
  /**
   * A reader's view: only these site spaces (the ones its claims show it), sections and groups without any left
   * out, and no condition shown (what chose them is not the reader's to see).
   */
  only?: ReadonlySet<string> | undefined;
}

/** The view of `items`' spaces: one batched call to the content service, as the caller. */
export async function structureView(
  ctx: Pick<SitesContext, 'peers' | 'actor' | 'requestId'>,
  site: ISite,
  tree: SiteTree,
  items: TreeSpace[],
  shareKey: string | null,
  opts: { readerView?: boolean } = {},
): Promise<StructureView> {
  return {
    site,
    tree,
    spaces: await fetchSpaces(
      ctx,
      items.map((i) => i.entity.spaceId),
    ),
    shareKey,
    ...(opts.readerView ? { only: new Set(items.map((i) => i.entity.id)) } : {}),
  };
}

/** The site spaces of a level the view shows. */
const levelShown = (v: StructureView, level: string | null) =>
  v.tree.visibleIn(level).filter((t) => !v.only || v.only.has(t.entity.id));

/** The navigation items of a level the view shows: all, or for a reader those that lead to a site space it is shown. */
function itemsShown(v: StructureView, items: NavItem[]): NavItem[] {
  if (!v.only) return items;
  return items.filter((i) =>
    i.type === 'site-section'
      ? levelShown(v, i.entity.id).length > 0
      : itemsShown(v, v.tree.navItems(i.entity.id)).length > 0,
  );
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
    ...(s.condition != null && !v.only ? { condition: s.condition } : {}),
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
    ...(section.condition != null && !v.only ? { condition: section.condition } : {}),
    ...(section.icon != null ? { icon: section.icon } : {}),
    ...(section.sectionGroupId != null && v.tree.group(section.sectionGroupId)
      ? { sectionGroup: section.sectionGroupId }
      : {}),
    siteSpaces: levelShown(v, section.id).map((t) => presentSiteSpace(ctx, v, t)),
    urls: url ? { published: url } : {},
  };
}

/** A section group with what is in it (sections and groups, in order); `sections`: its own sections (deprecated). */
export function presentSectionGroup(
  ctx: PresentContext,
  v: StructureView,
  group: ISiteSectionGroup,
): SiteSectionGroupDto {
  const items = itemsShown(v, v.tree.navItems(group.id));
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    sections: items.flatMap((i) => (i.type === 'site-section' ? [presentSection(ctx, v, i.entity)] : [])),
    ...(group.parentId != null && v.tree.group(group.parentId) ? { sectionGroup: group.parentId } : {}),
    draft: false,
    children: items.map((i) => presentNavItem(ctx, v, i)),
    ...(group.icon != null ? { icon: group.icon } : {}),
  };
}

const presentNavItem = (ctx: PresentContext, v: StructureView, item: NavItem) =>
  item.type === 'site-section' ? presentSection(ctx, v, item.entity) : presentSectionGroup(ctx, v, item.entity);

/** The structure: the sections and groups of the root with their site spaces, or the visible root site spaces. */
export function presentStructure(ctx: PresentContext, v: StructureView): SiteStructure {
  return v.tree.kind === 'sections'
    ? { type: 'sections', structure: itemsShown(v, v.tree.navItems(null)).map((i) => presentNavItem(ctx, v, i)) }
    : { type: 'siteSpaces', structure: levelShown(v, null).map((t) => presentSiteSpace(ctx, v, t)) };
}

/** A section as the caller sees it, from the site's current structure (read again: after a change). */
export async function presentSectionById(ctx: SitesContext & PresentContext, site: ISite, sectionId: string) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const section = tree.section(sectionId);
  if (!section) throw notFound('Site section');
  return presentSection(ctx, await structureView(ctx, site, tree, tree.visibleIn(section.id), null), section);
}

/** A section group as the caller sees it, from the site's current structure (read again: after a change). */
export async function presentSectionGroupById(ctx: SitesContext & PresentContext, site: ISite, groupId: string) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const group = tree.group(groupId);
  if (!group) throw notFound('Site section group');
  return presentSectionGroup(ctx, await structureView(ctx, site, tree, tree.shown, null), group);
}

/** The section, group or site space a structure change moved, as the caller sees it in the site's current structure. */
export async function presentStructureItem(
  ctx: SitesContext & PresentContext,
  site: ISite,
  item: { type: 'site-section' | 'site-section-group' | 'site-space'; id: string },
) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const view = await structureView(ctx, site, tree, tree.spaces, null);
  if (item.type === 'site-section') return presentSection(ctx, view, tree.section(item.id)!);
  if (item.type === 'site-section-group') return presentSectionGroup(ctx, view, tree.group(item.id)!);
  return presentSiteSpace(ctx, view, tree.siteSpace(item.id)!);
}

/** A site space as the caller sees it, from the site's current structure (read again: after a change). */
export async function presentSiteSpaceById(ctx: SitesContext & PresentContext, site: ISite, siteSpaceId: string) {
  const tree = await SiteTree.load(ctx.em, site.id);
  const t = tree.siteSpace(siteSpaceId);
  if (!t) throw notFound('Site space');
  return presentSiteSpace(ctx, await structureView(ctx, site, tree, [t], null), t);
}
