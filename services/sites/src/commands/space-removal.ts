import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import { Site } from '../modules/sites/site.entity.ts';
import { SiteTree } from '../modules/structure/site-tree.ts';
import { SiteSpace } from '../modules/structure/structure.entity.ts';
import { ensureDefault } from './structure-helpers.ts';

/**
 * A space is gone from the sites that show it: purged (every site), or transferred to another organization
 * (`keepOrganization`: sites of that organization keep it). Its site spaces are removed; a level that lost its
 * default gets its first remaining site space as default; each changed site gets `site.updated`.
 */
export async function spaceRemover(
  em: EntityManager,
  props: { spaceId: string; keepOrganization?: string; now?: Date },
): Promise<string[]> {
  const now = props.now ?? new Date();
  const rows = await em.find(SiteSpace, { spaceId: props.spaceId });
  const siteIds = [...new Set(rows.map((r) => r.siteId))];
  if (!siteIds.length) return [];
  const sites = await em.find(Site, { id: { $in: siteIds } });
  const changed: string[] = [];
  for (const site of sites) {
    if (props.keepOrganization !== undefined && site.organizationId === props.keepOrganization) continue;
    const tree = await SiteTree.load(em, site.id);
    const gone = tree.spaces.filter((t) => t.entity.spaceId === props.spaceId);
    for (const t of gone) em.remove(t.entity);
    const levels = new Set(gone.map((t) => t.entity.sectionId ?? null));
    for (const level of levels)
      ensureDefault(
        tree
          .levelSpaces(level)
          .map((t) => t.entity)
          .filter((s) => s.spaceId !== props.spaceId),
      );
    site.updatedAt = now;
    recordEvent(em, Events.siteUpdated, { site: site.id, organization: site.organizationId, fields: ['siteSpaces'] });
    changed.push(site.id);
  }
  return changed;
}
