import type { Space } from '@quire/contracts';
import { conflict, invalid, newId, orderKeysBetween, slugify, uniqueSlug, type EntityManager } from '@quire/kit';
import { lastKey } from '../modules/structure/order.ts';
import { MAX_SECTIONS, MAX_SITE_SPACES } from '../modules/structure/site-tree.ts';
import { SiteSection, type ISiteSection, type ISiteSpace } from '../modules/structure/structure.entity.ts';
import { groupNamed, placeInLevel } from './section-group-commands.ts';
import {
  assignGiven,
  createSiteSpace,
  ensureDefault,
  setDefault,
  siteChanged,
  structureItemSaved,
  type StructureChange,
} from './structure-helpers.ts';

export interface SectionCreatorProps extends StructureChange {
  /** The space the section shows first (checked by the caller). */
  space: Space;
  title?: string | null | undefined;
  icon?: string | null | undefined;
  /** The section group to create it in (400 naming `siteSectionGroupId` when the site has none such); the root when absent. */
  siteSectionGroupId?: string | undefined;
}

/**
 * A new section, last among the sections and groups of its level (the default when it is the first), holding `space` as its first
 * site space (its default). The first section of a site takes in the site spaces that were at the root, after
 * its own, so the site keeps showing them.
 */
export async function sectionCreator(em: EntityManager, props: SectionCreatorProps): Promise<ISiteSection> {
  const { site, tree, space } = props;
  const now = props.now ?? new Date();
  if (tree.sections.length >= MAX_SECTIONS) throw conflict(`A site holds at most ${MAX_SECTIONS} sections`);
  if (tree.spaces.length >= MAX_SITE_SPACES) throw conflict(`A site holds at most ${MAX_SITE_SPACES} site spaces`);
  const group = groupNamed(tree, props.siteSectionGroupId, 'siteSectionGroupId');
  const title = props.title ?? (space.title.trim().length >= 2 ? space.title : 'Untitled section');
  const section = em.create(SiteSection, {
    id: newId(),
    siteId: site.id,
    title,
    description: null,
    icon: props.icon ?? null,
    path: uniqueSlug(
      slugify(title, { fallback: 'section' }),
      tree.sections.map((s) => s.path),
    ),
    condition: null,
    sectionGroupId: group?.id ?? null,
    isDefault: tree.sections.length === 0,
    order: lastKey(tree.navItems(group?.id ?? null).map((i) => i.entity)),
    createdAt: now,
  });
  const first = await createSiteSpace(em, site, section.id, [], space, now);
  if (tree.sections.length === 0) {
    const root = tree.levelSpaces(null);
    const keys = orderKeysBetween(first.order, null, root.length);
    const moved: ISiteSpace[] = [first];
    for (const [i, t] of root.entries()) {
      const s = t.entity;
      s.path = uniqueSlug(
        s.path,
        moved.map((m) => m.path),
      );
      s.sectionId = section.id;
      s.isDefault = false;
      s.order = keys[i]!;
      moved.push(s);
    }
  }
  siteChanged(em, site, ['sections'], now);
  return section;
}

export interface SectionUpdaterProps extends StructureChange {
  section: ISiteSection;
  title?: string | undefined;
  path?: string | undefined;
  defaultSiteSpace?: string | undefined;
  /** Checked against the adaptive schema by the caller; null removes it. */
  condition?: string | null | undefined;
  icon?: string | null | undefined;
  description?: string | null | undefined;
  /** The section group to move it into (last there), null for the root; unset keeps it where it is. */
  siteSectionGroupId?: string | null | undefined;
}

/** Changes a section: `path` unique among the sections (409); `defaultSiteSpace` one of its live site spaces (400). */
export function sectionUpdater(em: EntityManager, props: SectionUpdaterProps): ISiteSection {
  const { site, tree, section } = props;
  if (
    props.path !== undefined &&
    props.path !== section.path &&
    tree.sections.some((s) => s.id !== section.id && s.path === props.path)
  ) {
    throw conflict(`path: another section of the site already uses "${props.path}"`);
  }
  if (props.defaultSiteSpace !== undefined) {
    const chosen = tree.siteSpace(props.defaultSiteSpace);
    if (!chosen || chosen.entity.sectionId !== section.id)
      throw invalid(`defaultSiteSpace: no site space ${props.defaultSiteSpace} in this section`);
    if (chosen.hidden) throw invalid(`defaultSiteSpace: the space of site space ${chosen.entity.id} is deleted`);
    setDefault(
      tree.levelSpaces(section.id).map((t) => t.entity),
      chosen.entity,
    );
  }
  if (props.siteSectionGroupId !== undefined)
    placeInLevel(tree, section, groupNamed(tree, props.siteSectionGroupId, 'siteSectionGroupId')?.id ?? null);
  assignGiven(section, props, ['title', 'path', 'condition', 'icon', 'description']);
  return structureItemSaved(em, site, section, ['sections'], props.now);
}

/** Deletes a section with its site spaces; when it was the default, the first remaining section becomes it. */
export function sectionDeleter(
  em: EntityManager,
  { site, tree, section, now = new Date() }: StructureChange & { section: ISiteSection },
): void {
  for (const t of tree.levelSpaces(section.id)) em.remove(t.entity);
  em.remove(section);
  ensureDefault(tree.sections.filter((s) => s.id !== section.id));
  siteChanged(em, site, ['sections'], now);
}
