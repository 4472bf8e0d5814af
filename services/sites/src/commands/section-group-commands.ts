import { conflict, invalid, newId, orderKeysBetween, type EntityManager } from '@quire/kit';
import { lastKey } from '../modules/structure/order.ts';
import { MAX_GROUP_DEPTH, MAX_SECTION_GROUPS, type SiteTree } from '../modules/structure/site-tree.ts';
import { SiteSectionGroup, type ISiteSection, type ISiteSectionGroup } from '../modules/structure/structure.entity.ts';
import { assignGiven, siteChanged, structureItemSaved, type StructureChange } from './structure-helpers.ts';

/** The group a request names (400 naming `field` when the site has no such group); null for none. */
export function groupNamed(tree: SiteTree, id: string | null | undefined, field: string): ISiteSectionGroup | null {
  if (id === null || id === undefined) return null;
  const group = tree.group(id);
  if (!group) throw invalid(`${field}: no section group ${id} on this site`);
  return group;
}

/** How many levels of groups are under a group (0 when it holds no group). */
function heightOf(tree: SiteTree, group: ISiteSectionGroup, seen = new Set<string>()): number {
  seen.add(group.id);
  const below = tree
    .navItems(group.id)
    .filter((i) => i.type === 'site-section-group' && !seen.has(i.entity.id))
    .map((i) => heightOf(tree, i.entity as ISiteSectionGroup, seen) + 1);
  return Math.max(0, ...below);
}

/**
 * Puts a section or a group last in `level` (a group, or the root): a key after the last one there, the only row
 * written (its old level keeps its keys). The caller checked that the move makes no cycle.
 */
export function placeInLevel(tree: SiteTree, item: ISiteSection | ISiteSectionGroup, level: string | null): void {
  const isSection = 'path' in item;
  const from = isSection ? (item.sectionGroupId ?? null) : (item.parentId ?? null);
  const target = tree.navItems(level).map((i) => i.entity);
  if (from === level && target.some((e) => e.id === item.id)) return;
  item.order = lastKey(target);
  if (isSection) item.sectionGroupId = level;
  else item.parentId = level;
}

export interface SectionGroupCreatorProps extends StructureChange {
  title: string;
  icon?: string | null | undefined;
  /** The group to nest the new one in; the root when absent. */
  parent?: string | undefined;
  /** Sections of the site moved into the group, in this order. */
  sections?: string[] | undefined;
}

/** A new section group, last at its level, holding `sections` (moved from where they were). */
export function sectionGroupCreator(em: EntityManager, props: SectionGroupCreatorProps): ISiteSectionGroup {
  const { site, tree } = props;
  const now = props.now ?? new Date();
  if (!tree.sections.length) throw conflict('A site has section groups once it has sections: add a section first');
  if (tree.groups.length >= MAX_SECTION_GROUPS)
    throw conflict(`A site holds at most ${MAX_SECTION_GROUPS} section groups`);
  const parent = groupNamed(tree, props.parent, 'parent');
  if (parent && tree.groupChain(parent.id).length >= MAX_GROUP_DEPTH)
    throw invalid(`parent: section groups nest at most ${MAX_GROUP_DEPTH} deep`);
  const ids = props.sections ?? [];
  if (new Set(ids).size !== ids.length) throw invalid('sections: a section is named twice');
  const sections = ids.map((id) => {
    const section = tree.section(id);
    if (!section) throw invalid(`sections: no section ${id} on this site`);
    return section;
  });
  const group = em.create(SiteSectionGroup, {
    id: newId(),
    siteId: site.id,
    parentId: parent?.id ?? null,
    title: props.title,
    icon: props.icon ?? null,
    order: lastKey(tree.navItems(parent?.id ?? null).map((i) => i.entity)),
    createdAt: now,
  });
  tree.groups.push(group);
  for (const section of sections) placeInLevel(tree, section, group.id);
  siteChanged(em, site, ['sections'], now);
  return group;
}

export interface SectionGroupUpdaterProps extends StructureChange {
  group: ISiteSectionGroup;
  title?: string | undefined;
  icon?: string | null | undefined;
  /** The group to move it into (last there), null for the root; unset keeps it where it is. */
  parentSectionGroupId?: string | null | undefined;
}

/** Changes a group; a new parent may not be the group or one under it, nor nest groups too deep (400). */
export function sectionGroupUpdater(em: EntityManager, props: SectionGroupUpdaterProps): ISiteSectionGroup {
  const { site, tree, group } = props;
  if (props.parentSectionGroupId !== undefined) {
    const parent = groupNamed(tree, props.parentSectionGroupId, 'parentSectionGroupId');
    if (parent && tree.groupChain(parent.id).some((g) => g.id === group.id))
      throw invalid('parentSectionGroupId: a group cannot move into itself or a group under it');
    const depth = (parent ? tree.groupChain(parent.id).length : 0) + 1 + heightOf(tree, group);
    if (depth > MAX_GROUP_DEPTH)
      throw invalid(`parentSectionGroupId: section groups nest at most ${MAX_GROUP_DEPTH} deep`);
    placeInLevel(tree, group, parent?.id ?? null);
  }
  assignGiven(group, props, ['title', 'icon']);
  return structureItemSaved(em, site, group, ['sections'], props.now);
}

/**
 * Deletes a group: its sections and groups take its place in its parent level, in their order (keys between the
 * group's neighbours; only they are written).
 */
export function sectionGroupDeleter(
  em: EntityManager,
  { site, tree, group, now = new Date() }: StructureChange & { group: ISiteSectionGroup },
): void {
  const level = group.parentId ?? null;
  const children = tree.navItems(group.id).map((i) => i.entity);
  const siblings = tree.navItems(level).map((i) => i.entity);
  const at = siblings.findIndex((e) => e.id === group.id);
  const keys = orderKeysBetween(siblings[at - 1]?.order, siblings[at + 1]?.order, children.length);
  children.forEach((child, i) => {
    child.order = keys[i]!;
    if ('path' in child) child.sectionGroupId = level;
    else child.parentId = level;
  });
  em.remove(group);
  siteChanged(em, site, ['sections'], now);
}
