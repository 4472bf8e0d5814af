import { invalid, notFound, pageOfList, type PageRequest } from '@quire/kit';
import type { List } from '@quire/contracts';
import type { SitesContext } from '../../trpc.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import type { ISite } from '../sites/site.entity.ts';
import { loadSiteFor, type LoadedSite } from '../sites/site.loader.ts';
import { SiteTree, type TreeSpace } from './site-tree.ts';
import type { ISiteSpace } from './structure.entity.ts';
import type { ISiteSection, ISiteSectionGroup } from './structure.entity.ts';

/** A site whose structure the caller may edit, locked until the mutation commits, and its tree. */
async function loadEditableStructure(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string },
): Promise<{ site: ISite; tree: SiteTree }> {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'editStructure', { lock: true });
  return { site, tree: await SiteTree.load(ctx.em, site.id) };
}

/** A section of a site whose structure the caller may edit (the site locked), with the site's tree (404 without it). */
export async function loadSectionFor(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string; siteSectionId: string },
): Promise<{ site: ISite; tree: SiteTree; section: ISiteSection }> {
  const { site, tree } = await loadEditableStructure(ctx, input);
  const section = tree.section(input.siteSectionId);
  if (!section) throw notFound('Site section');
  return { site, tree, section };
}

/** The position of the deprecated moves: before or after an item named by its id under `K`. */
type PointerPosition<K extends string> = {
  before?: Record<K, string> | undefined;
  after?: Record<K, string> | undefined;
};

/** A deprecated move's position (ids under `key`) as a structure position among items of `type`. */
function structurePosition<K extends string, T extends 'site-section' | 'site-space'>(
  key: K,
  type: T,
  position: PointerPosition<K> = {},
) {
  const pointer = (p: Record<K, string> | undefined) => (p ? { type, id: p[key] } : undefined);
  return { before: pointer(position.before), after: pointer(position.after) };
}

/** A section pointer of the deprecated `moveSiteSection`, as a structure position. */
export const sectionPosition = (position?: PointerPosition<'siteSection'>) =>
  structurePosition('siteSection', 'site-section', position);

/**
 * What the site's audience reaches: 404 while it is not published, and for a `share-link` site unless `shareKey`
 * is the key of one of its active links (its URLs then carry the key).
 */
export async function loadPublishedSiteFor(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string; shareKey?: string | undefined },
): Promise<LoadedSite & { shareKey: string | null; tree: SiteTree }> {
  const loaded = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
  if (!loaded.site.published) throw notFound('Published site');
  const shareKey = await resolveShareKey(ctx, loaded.site, input.shareKey);
  if (loaded.site.visibility === 'share-link' && !shareKey)
    throw notFound('Published site (a share-link site opens with the key of an active share link)');
  return { ...loaded, shareKey, tree: await SiteTree.load(ctx.em, loaded.site.id) };
}

/** A site space of a site whose structure the caller may edit (the site locked), with the site's tree (404 without it). */
export async function loadSiteSpaceFor(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string; siteSpaceId: string },
): Promise<{ site: ISite; tree: SiteTree; siteSpace: ISiteSpace }> {
  const { site, tree } = await loadEditableStructure(ctx, input);
  const t = tree.siteSpace(input.siteSpaceId);
  if (!t) throw notFound('Site space');
  return { site, tree, siteSpace: t.entity };
}

/** A site whose structure the caller may edit (locked), and its tree; a `sectionId` must name one of its sections (400). */
export async function loadSiteStructureFor(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string; sectionId?: string | undefined },
): Promise<{ site: ISite; tree: SiteTree }> {
  const { site, tree } = await loadEditableStructure(ctx, input);
  if (input.sectionId !== undefined && !tree.section(input.sectionId))
    throw invalid(`sectionId: no section ${input.sectionId} on this site`);
  return { site, tree };
}

/**
 * A page of the site spaces shown on a site the caller may view, in structure order (sections in order, then their
 * site spaces); `default` picks the site's default site space, or the others.
 */
export async function loadShownSiteSpaces(
  ctx: SitesContext,
  input: PageRequest & { organizationId: string; siteId: string; default?: boolean | undefined },
): Promise<{ site: ISite; tree: SiteTree; page: List<TreeSpace> }> {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
  const tree = await SiteTree.load(ctx.em, site.id);
  const siteDefault = tree.siteDefault?.entity.id;
  const shown =
    input.default === undefined
      ? tree.shown
      : tree.shown.filter((t) => (t.entity.id === siteDefault) === input.default);
  const sectionKey = new Map(tree.sections.map((s) => [s.id, tree.navKey(s)]));
  const page = pageOfList(
    shown,
    (t: TreeSpace) => [sectionKey.get(t.entity.sectionId ?? '') ?? '', t.entity.order, t.entity.id],
    input,
  );
  return { site, tree, page };
}

/** A site space pointer of the deprecated `moveSiteSpace`, as a structure position. */
export const siteSpacePosition = (position?: PointerPosition<'siteSpace'>) =>
  structurePosition('siteSpace', 'site-space', position);

/** A section group of a site whose structure the caller may edit (the site locked), with the site's tree (404 without it). */
export async function loadSectionGroupFor(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string; siteSectionGroupId: string },
): Promise<{ site: ISite; tree: SiteTree; group: ISiteSectionGroup }> {
  const { site, tree } = await loadEditableStructure(ctx, input);
  const group = tree.group(input.siteSectionGroupId);
  if (!group) throw notFound('Site section group');
  return { site, tree, group };
}

/** A page of the section groups of a site the caller may view, in navigation order. */
export async function loadSectionGroups(
  ctx: SitesContext,
  input: PageRequest & { organizationId: string; siteId: string },
): Promise<{ site: ISite; tree: SiteTree; page: List<ISiteSectionGroup> }> {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
  const tree = await SiteTree.load(ctx.em, site.id);
  return { site, tree, page: pageOfList(tree.orderedGroups, (_g, i) => [i], input) };
}

/** A section group pointer of the deprecated `moveSiteSectionGroup`, as a structure position. */
export const sectionGroupPosition = (
  position: {
    before?: { type: 'site-section' | 'site-section-group'; id: string } | undefined;
    after?: { type: 'site-section' | 'site-section-group'; id: string } | undefined;
  } = {},
) => ({ before: position.before, after: position.after });
