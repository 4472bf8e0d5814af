import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';

/** Publishes or unpublishes a site (`site.published` / `site.unpublished`); a site already so changes nothing. */
export function sitePublisher(
  em: EntityManager,
  { site, published, now = new Date() }: { site: ISite; published: boolean; now?: Date },
): ISite {
  if (site.published === published) return site;
  site.published = published;
  site.updatedAt = now;
  em.persist(site);
  recordEvent(em, published ? Events.sitePublished : Events.siteUnpublished, {
    site: site.id,
    organization: site.organizationId,
  });
  return site;
}
