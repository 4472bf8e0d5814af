import type { SitePosition, SiteStructurePointer } from '@quire/contracts';
import { invalid, notFound, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { keyAt } from '../modules/structure/order.ts';
import type { SiteTree } from '../modules/structure/site-tree.ts';
import { siteChanged } from './structure-helpers.ts';

export interface StructureSorterProps {
  site: ISite;
  tree: SiteTree;
  item: SiteStructurePointer;
  /** Before or after a sibling of the same kind and level; last when neither. */
  position?: SitePosition | undefined;
  /** The request field the position came from (for 400 messages). */
  field?: string;
  now?: Date;
}

const NAV_TYPES = new Set(['site-section', 'site-section-group']);

/** The section or group a pointer names, with the sections and groups of its level (404 when not on the site). */
function navSiblings(tree: SiteTree, item: SiteStructurePointer) {
  const entity = item.type === 'site-section' ? tree.section(item.id) : tree.group(item.id);
  if (!entity) throw notFound(item.type === 'site-section' ? 'Site section' : 'Site section group');
  const level = 'path' in entity ? (entity.sectionGroupId ?? null) : (entity.parentId ?? null);
  return { entity, siblings: tree.navItems(tree.group(level ?? '') ? level : null).map((i) => i.entity) };
}

/**
 * Orders siblings: a section or a section group among the sections and groups of its level (the root, or a group),
 * a site space among the site spaces of its section (or of the root). The item gets a key between its new
 * neighbours' (one row written; none when it is there already). The reference must be a sibling of a kind ordered
 * with the item (400); the item must be on the site (404).
 */
export function structureSorter(em: EntityManager, props: StructureSorterProps): void {
  const { site, tree, item } = props;
  const field = props.field ?? 'position';
  const ref = props.position?.before ?? props.position?.after;
  const nav = NAV_TYPES.has(item.type);
  if (ref && (nav ? !NAV_TYPES.has(ref.type) : ref.type !== item.type))
    throw invalid(`${field}: a ${item.type} is not ordered relative to a ${ref.type}`);
  const position = { before: props.position?.before?.id, after: props.position?.after?.id };
  if (nav) {
    const { entity, siblings } = navSiblings(tree, item);
    entity.order = keyAt(siblings, entity, position, field);
  } else {
    const t = tree.siteSpace(item.id);
    if (!t) throw notFound('Site space');
    const siblings = tree.levelSpaces(t.entity.sectionId ?? null).map((s) => s.entity);
    t.entity.order = keyAt(siblings, t.entity, position, field);
  }
  siteChanged(em, site, ['structure'], props.now ?? new Date());
}
