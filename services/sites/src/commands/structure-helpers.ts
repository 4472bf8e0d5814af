import { Events, type Space } from '@quire/contracts';
import { newId, recordEvent, slugify, uniqueSlug, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { SiteSpace, type ISiteSpace } from '../modules/structure/structure.entity.ts';
import { lastKey } from '../modules/structure/order.ts';
import type { SiteTree } from '../modules/structure/site-tree.ts';
import { contentSpaceRepository } from '../modules/spaces/content-space.repository.ts';

/** Makes `chosen` the one default of its level. */
export function setDefault<T extends { id: string; isDefault: boolean }>(level: T[], chosen: T): void {
  for (const item of level) item.isDefault = item.id === chosen.id;
}

/** A level that lost its default (or never had one) gets its first item as default: exactly one per level. */
export function ensureDefault<T extends { isDefault: boolean }>(level: T[]): void {
  const [first] = level;
  if (first && !level.some((x) => x.isDefault)) first.isDefault = true;
}

/**
 * A new site space showing `space` in `level` (a section, or the root), last among `siblings`, with a path
 * from the space title that is free in the level; the default of the level when it has none. The space joins
 * the `content_space` projection if its events have not arrived yet (the events still apply after it).
 */
export async function createSiteSpace(
  em: EntityManager,
  site: ISite,
  level: string | null,
  siblings: ISiteSpace[],
  space: Space,
  now: Date,
): Promise<ISiteSpace> {
  await contentSpaceRepository.insert(em, {
    id: space.id,
    organizationId: space.organization,
    title: space.title,
    at: space.updatedAt,
  });
  return em.create(SiteSpace, {
    id: newId(),
    siteId: site.id,
    sectionId: level,
    spaceId: space.id,
    path: uniqueSlug(
      slugify(space.title, { fallback: 'space' }),
      siblings.map((s) => s.path),
    ),
    condition: null,
    isDefault: !siblings.some((s) => s.isDefault),
    order: lastKey(siblings),
    createdAt: now,
  });
}

/** Sets on `entity` each of `fields` that `props` gives; a field left undefined stays as it is. */
export function assignGiven<E, K extends keyof E>(
  entity: E,
  props: { [P in K]?: E[P] | undefined },
  fields: readonly K[],
): void {
  for (const field of fields) {
    const value = props[field];
    if (value !== undefined) entity[field] = value as E[K];
  }
}

/** What every command on a site's structure is given: the site and its tree (loaded under the site's row lock), and when. */
export interface StructureChange {
  site: ISite;
  tree: SiteTree;
  now?: Date;
}

/** Writes a changed item of the site's structure, marks `fields` of the site changed (`siteChanged`) and answers it. */
export function structureItemSaved<T extends object>(
  em: EntityManager,
  site: ISite,
  item: T,
  fields: string[],
  now = new Date(),
): T {
  em.persist(item);
  siteChanged(em, site, fields, now);
  return item;
}

/** `site.updated` for what changed (`fields`), and the site's `updatedAt`. */
export function siteChanged(em: EntityManager, site: ISite, fields: string[], now: Date): void {
  site.updatedAt = now;
  em.persist(site);
  recordEvent(em, Events.siteUpdated, { site: site.id, organization: site.organizationId, fields });
}
