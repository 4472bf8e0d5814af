import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { siteRepository } from '../modules/sites/site.repository.ts';

/** Deletes a site with its sections, site spaces and share links (`site.deleted`). */
export function siteDeleter(em: EntityManager, { site }: { site: ISite }): void {
  em.remove(site);
  recordEvent(em, Events.siteDeleted, { site: site.id, organization: site.organizationId });
}

/** Drops every site of a deleted organization (`site.deleted` for each). */
export async function organizationSitesDropper(
  em: EntityManager,
  { organizationId }: { organizationId: string },
): Promise<string[]> {
  const ids = await siteRepository.deleteInOrganization(em, organizationId);
  for (const id of ids) recordEvent(em, Events.siteDeleted, { site: id, organization: organizationId });
  return ids;
}
