import type { SitePosition, SiteStructurePointer } from '@quire/contracts';
import { invalid, notFound, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { renumber, reorder } from '../modules/structure/order.ts';
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

/**
 * Orders siblings: a section among the sections, a site space among the site spaces of its section (or of the
 * root). The reference must be a sibling of the same kind (400); the item must be on the site (404).
 */
export function structureSorter(em: EntityManager, props: StructureSorterProps): void {
  const { site, tree, item } = props;
  const field = props.field ?? 'position';
  const ref = props.position?.before ?? props.position?.after;
  if (ref && ref.type !== item.type)
    throw invalid(`${field}: a ${item.type} is ordered among ${item.type}s, not relative to a ${ref.type}`);
  const position = { before: props.position?.before?.id, after: props.position?.after?.id };
  if (item.type === 'site-section') {
    const section = tree.section(item.id);
    if (!section) throw notFound('Site section');
    renumber(reorder(tree.sections, section, position, field));
  } else {
    const t = tree.siteSpace(item.id);
    if (!t) throw notFound('Site space');
    const siblings = tree.levelSpaces(t.entity.sectionId ?? null).map((s) => s.entity);
    renumber(reorder(siblings, t.entity, position, field));
  }
  siteChanged(em, site, ['structure'], props.now ?? new Date());
}
