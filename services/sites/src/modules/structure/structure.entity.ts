import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';

/** Fractional-indexing key among its siblings (kit `orderKeyBetween`, column `ord`), compared byte by byte; ties by id. */
const orderColumn = () => ({ order: p.string().fieldName('ord') });

/**
 * A group of sections (and of other groups, `parentId`) in the site's navigation. Sections and groups of one level
 * (the root, or a group) are ordered together by their order key (`ord`, the kit's fractional-indexing keys), then id.
 */
export const SiteSectionGroup = defineEntity({
  name: 'SiteSectionGroup',
  tableName: 'site_section_group',
  properties: {
    ...idColumn(),
    siteId: p.string(),
    parentId: p.string().nullable(),
    title: p.string(),
    icon: p.string().nullable(),
    ...orderColumn(),
    createdAt: p.datetime(),
  },
});
export type ISiteSectionGroup = InferEntity<typeof SiteSectionGroup>;

/** A section of a site: a group of site spaces (variants), ordered among the sections and groups of its level by `ord`. */
export const SiteSection = defineEntity({
  name: 'SiteSection',
  tableName: 'site_section',
  properties: {
    ...idColumn(),
    siteId: p.string(),
    title: p.string(),
    description: p.string().nullable(),
    icon: p.string().nullable(),
    path: p.string(),
    condition: p.string().nullable(),
    /** The section group the section is in; null: at the root of the site. */
    sectionGroupId: p.string().nullable(),
    /** One section of a site is its default (kept by the commands, under the site's row lock). */
    isDefault: p.boolean(),
    ...orderColumn(),
    createdAt: p.datetime(),
  },
});
export type ISiteSection = InferEntity<typeof SiteSection>;

/** A space shown on a site, at the root (no section) or in a section; ordered among its siblings by `ord`. */
export const SiteSpace = defineEntity({
  name: 'SiteSpace',
  tableName: 'site_space',
  properties: {
    ...idColumn(),
    siteId: p.string(),
    sectionId: p.string().nullable(),
    spaceId: p.string(),
    path: p.string(),
    condition: p.string().nullable(),
    /** One site space per level (the root, or a section) is its default. */
    isDefault: p.boolean(),
    ...orderColumn(),
    createdAt: p.datetime(),
    /** The site space's overrides of the site's customization (`overrideSiteSpaceCustomizationById`); null: none. */
    customization: p.json<Record<string, unknown>>().nullable(),
    customizationUpdatedAt: p.datetime().nullable(),
  },
});
export type ISiteSpace = InferEntity<typeof SiteSpace>;
