import type { Space, SiteSection as SiteSectionDto, SiteSpace as SiteSpaceDto, SiteStructure } from '@quire/contracts';
import type { ISite } from '../sites/site.entity.ts';
import { publishedUrl, type PresentContext } from '../sites/site.presenter.ts';
import { fetchSpaces } from '../spaces/content-spaces.ts';
import type { SitesContext } from '../../trpc.ts';
import type { SiteTree, TreeSpace } from './site-tree.ts';
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
  return { site, tree, spaces: await fetchSpaces(ctx, items.map((i) => i.entity.spaceId)), shareKey };
}

/** The URL segment of a section: none for the default section. */
const sectionSegments = (v: StructureView, section: ISiteSection | undefined) => (section && v.tree.defaultSection?.id !== section.id ? [section.path] : []);

export function presentSiteSpace(ctx: PresentContext, v: StructureView, t: TreeSpace): SiteSpaceDto {
  const s = t.entity;
  const level = s.sectionId ?? null;
  const isDefault = v.tree.effectiveDefault(level)?.entity.id === s.id;
  const section = level ? v.tree.section(level) : undefined;
  const space = v.spaces.get(s.spaceId);
  const url = publishedUrl(ctx.urls, v.site, [...sectionSegments(v, section), ...(isDefault ? [] : [s.path])], v.shareKey);
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
