import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel, type AccessLevel } from '@quire/kit';

/**
 * The caller's level on the sites of an organization: its organization role. Guests (members without a role)
 * and outsiders see no site (404), like content they were not given.
 */
function siteLevel(actor: Actor, facts: { organizationId: string }): AccessLevel | null {
  const level = organizationLevel(actor, facts.organizationId);
  return level === 'guest' ? null : level;
}

/** Sites and everything in them (sections, site spaces, share links, adaptive schema): one policy. */
export const sitePolicy = definePolicy({
  resource: 'Site',
  role: siteLevel,
  actions: {
    /** GET the site, its structure, sections, site spaces, share links, adaptive schema, published view. */
    view: 'read',
    /** PATCH settings, publish and unpublish. */
    update: 'create',
    /** Sections, site spaces, their order. */
    editStructure: 'create',
    /** Create, change and delete share links. */
    manageShareLinks: 'create',
    /** PUT the adaptive schema. */
    editAdaptiveSchema: 'create',
    /** DELETE the site. */
    delete: 'admin',
  },
  describe: {
    update: 'Changing the site settings',
    editStructure: 'Changing the site structure',
    manageShareLinks: 'Managing the share links of the site',
    editAdaptiveSchema: 'Changing the adaptive schema of the site',
    delete: 'Deleting the site',
  },
  permissions: {
    view: 'read',
    access: 'read',
    edit: 'create',
    create: 'create',
    admin: 'admin',
    installIntegration: 'admin',
    viewAdaptiveSchema: 'read',
    editAdaptiveSchema: 'create',
  },
});
export type SiteAction = keyof typeof sitePolicy.actions;

/** What the sites service decides at the level of an organization: listing and creating its sites. */
export const organizationSitesPolicy = definePolicy({
  resource: 'Organization',
  role: siteLevel,
  actions: { list: 'read', create: 'create' },
  refusals: { create: 'Creating a site needs the `create` role in the organization' },
});
