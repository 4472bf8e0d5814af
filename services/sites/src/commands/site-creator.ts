import { Events, type SiteType, type SiteVisibility, type Space } from '@quire/contracts';
import { newId, recordEvent, slugify, uniqueSlug, type EntityManager } from '@quire/kit';
import { Site, type ISite } from '../modules/sites/site.entity.ts';
import { siteRepository } from '../modules/sites/site.repository.ts';
import type { ISiteSpace } from '../modules/structure/structure.entity.ts';
import { createSiteSpace } from './structure-helpers.ts';

export interface SiteCreatorProps {
  organizationId: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  /** Spaces checked by the caller (live, of the organization, readable): root site spaces in this order, the first the default. */
  spaces: Space[];
  now?: Date;
}

/** A new unpublished site with a basename free in the instance (from the title; it is the site's URL), its site spaces, and `site.created`. */
export async function siteCreator(em: EntityManager, props: SiteCreatorProps): Promise<ISite> {
  const now = props.now ?? new Date();
  const base = slugify(props.title, { fallback: 'site' });
  const site = em.create(Site, {
    id: newId(),
    organizationId: props.organizationId,
    type: props.type,
    title: props.title,
    hostname: null,
    hostnameToken: null,
    hostnameVerified: false,
    hostnameStatus: null,
    hostnameCheckedAt: null,
    basename: uniqueSlug(base, await siteRepository.basenamesLike(em, base)),
    proxyOrigin: null,
    visibility: props.visibility,
    published: false,
    adaptiveEnabled: false,
    agentsContext: 'included',
    adaptiveSchema: null,
    adaptiveSchemaUpdatedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  const added: ISiteSpace[] = [];
  for (const space of props.spaces) {
    if (added.some((s) => s.spaceId === space.id)) continue;
    added.push(await createSiteSpace(em, site, null, added, space, now));
  }
  recordEvent(em, Events.siteCreated, {
    site: site.id,
    organization: site.organizationId,
    title: site.title,
    spaces: added.map((s) => s.spaceId),
  });
  return site;
}
