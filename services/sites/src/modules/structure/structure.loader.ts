import { invalid, notFound, pageOfList, type PageRequest } from '@quire/kit';
import { readerOf, type Actor, type List } from '@quire/contracts';
import { siteSpacesShownTo } from '../published/resolve-url.ts';
import type { SitesContext } from '../../trpc.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import type { ISite } from '../sites/site.entity.ts';
import { loadSiteFor, type LoadedSite } from '../sites/site.loader.ts';
import { SiteTree, type TreeSpace } from './site-tree.ts';
import type { ISiteSectionGroup } from './structure.entity.ts';

/**
 * A site the caller may `view`, or whose structure the caller may edit (`editStructure`: the site locked until the
 * mutation commits), and its tree.
 */
export async function loadStructureOf(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string },
  action: 'view' | 'editStructure',
): Promise<{ site: ISite; tree: SiteTree }> {
  const lock = action === 'editStructure';
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, action, { lock });
  return { site, tree: await SiteTree.load(ctx.em, site.id) };
}

/** The site (locked, its structure editable by the caller) and its tree, with one item of it. */
type EditableItem<K extends string, T> = { site: ISite; tree: SiteTree } & Record<K, T>;

/**
 * The loader of a structure item named by the input's `idKey`: the site whose structure the caller may edit (locked),
 * its tree and the item, under `key` (404, naming `what`, when the tree has no such item).
 */
function editableItemLoader<IdKey extends string, K extends string, T>(
  idKey: IdKey,
  key: K,
  what: string,
  find: (tree: SiteTree, id: string) => T | undefined,
) {
  return async (
    ctx: SitesContext,
    input: { organizationId: string; siteId: string } & Record<IdKey, string>,
  ): Promise<EditableItem<K, T>> => {
    const { site, tree } = await loadStructureOf(ctx, input, 'editStructure');
    const item = find(tree, input[idKey]);
    if (item === undefined) throw notFound(what);
    return { site, tree, [key]: item } as EditableItem<K, T>;
  };
}

/** A section of a site whose structure the caller may edit (the site locked), with the site's tree (404 without it). */
export const loadSectionFor = editableItemLoader('siteSectionId', 'section', 'Site section', (tree, id) =>
  tree.section(id),
);

/** A site space of a site whose structure the caller may edit (the site locked), with the site's tree (404 without it). */
export const loadSiteSpaceFor = editableItemLoader(
  'siteSpaceId',
  'siteSpace',
  'Site space',
  (tree, id) => tree.siteSpace(id)?.entity,
);

/** A section group of a site whose structure the caller may edit (the site locked), with the site's tree (404 without it). */
export const loadSectionGroupFor = editableItemLoader('siteSectionGroupId', 'group', 'Site section group', (tree, id) =>
  tree.group(id),
);

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

/** What the caller of `getPublishedContentSite` is shown of a published site. */
export interface LoadedPublishedSite extends LoadedSite {
  shareKey: string | null;
  tree: SiteTree;
  /** The site spaces shown: every one the structure shows a member; to a reader, those its claims show it. */
  shown: TreeSpace[];
  /** Who the spaces are read as: the caller; a reader with the site spaces it is shown. */
  viewer: Actor;
  /** Whether the structure is a reader's: only `shown`, without the conditions that chose it. */
  readerView: boolean;
}

/**
 * What the site's audience reaches: 404 while it is not published, and for a `share-link` site unless `shareKey`
 * (a reader's own, when it has one) is the key of one of its active links (its URLs then carry the key). A reader
 * (published-content token) is shown what its claims show it: the sections and site spaces whose conditions hold.
 */
export async function loadPublishedSiteFor(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string; shareKey?: string | undefined },
): Promise<LoadedPublishedSite> {
  const loaded = await loadSiteFor(ctx, input.organizationId, input.siteId, 'view');
  if (!loaded.site.published) throw notFound('Published site');
  const reader = readerOf(ctx.actor);
  const shareKey = await resolveShareKey(ctx, loaded.site, reader?.shareKey ?? input.shareKey);
  if (loaded.site.visibility === 'share-link' && !shareKey)
    throw notFound('Published site (a share-link site opens with the key of an active share link)');
  const tree = await SiteTree.load(ctx.em, loaded.site.id);
  if (!reader) return { ...loaded, shareKey, tree, shown: tree.shown, viewer: ctx.actor, readerView: false };
  const shown = siteSpacesShownTo(tree, { visitor: { claims: reader.claims } }, (condition, error) =>
    ctx.log.warn({ site: loaded.site.id, condition, error }, 'condition not parsed'),
  );
  const siteSpaces = shown.map((t) => ({ id: t.entity.id, space: t.entity.spaceId }));
  return {
    ...loaded,
    shareKey,
    tree,
    shown,
    viewer: { kind: 'reader', reader: { ...reader, siteSpaces } },
    readerView: true,
  };
}

/** A site whose structure the caller may edit (locked), and its tree; a `sectionId` must name one of its sections (400). */
export async function loadSiteStructureFor(
  ctx: SitesContext,
  input: { organizationId: string; siteId: string; sectionId?: string | undefined },
): Promise<{ site: ISite; tree: SiteTree }> {
  const { site, tree } = await loadStructureOf(ctx, input, 'editStructure');
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
  const { site, tree } = await loadStructureOf(ctx, input, 'view');
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

/** A page of the section groups of a site the caller may view, in navigation order. */
export async function loadSectionGroups(
  ctx: SitesContext,
  input: PageRequest & { organizationId: string; siteId: string },
): Promise<{ site: ISite; tree: SiteTree; page: List<ISiteSectionGroup> }> {
  const { site, tree } = await loadStructureOf(ctx, input, 'view');
  return { site, tree, page: pageOfList(tree.orderedGroups, (_g, i) => [i], input) };
}

/** A section group pointer of the deprecated `moveSiteSectionGroup`, as a structure position. */
export const sectionGroupPosition = (
  position: {
    before?: { type: 'site-section' | 'site-section-group'; id: string } | undefined;
    after?: { type: 'site-section' | 'site-section-group'; id: string } | undefined;
  } = {},
) => ({ before: position.before, after: position.after });
