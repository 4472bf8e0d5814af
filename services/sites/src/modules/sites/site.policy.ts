import type { Actor, Role } from '@quire/contracts';
import { definePolicy, highestRole, membershipOf, organizationLevel, type AccessLevel } from '@quire/kit';

/** A user's or a team's role override on a site (`inviteToSite`): null means no access. */
export interface SiteGrantFact {
  kind: 'user' | 'team';
  id: string;
  role: Role | null;
}

/** What the site policy needs of a site: its organization and its role overrides. */
export interface SiteAccessFacts {
  organizationId: string;
  /** The site (what a reader's site is checked against). */
  siteId?: string | undefined;
  grants?: readonly SiteGrantFact[] | undefined;
}

/**
 * The caller's level on what of a site follows the organization role alone (its redirects, its visitor
 * authentication): guests and outsiders have none (404).
 */
export function organizationMemberLevel(actor: Actor, facts: { organizationId: string }): AccessLevel | null {
  const level = organizationLevel(actor, facts.organizationId);
  return level === 'guest' ? null : level;
}

/**
 * A reader's level on a site (a published-content token): `read` on the site it was given for — its published
 * structure as its claims show it, its redirects, a search of what it reads; nothing on any other site. The
 * operations open to readers are those with `access: reader`; every other answers 403 before any policy.
 */
export function readerLevel(
  actor: Actor,
  site: { organizationId: string; id?: string | undefined },
): AccessLevel | null {
  if (actor.kind !== 'reader') return null;
  const r = actor.reader;
  return site.id !== undefined && r.site === site.id && r.organization === site.organizationId ? 'read' : null;
}

/** The level of a reader of the site (read), else of a member of its organization (their organization role). */
export const readerOrMemberLevel = (
  actor: Actor,
  site: { organizationId: string; id?: string | undefined },
): AccessLevel | null => readerLevel(actor, site) ?? organizationMemberLevel(actor, site);

/**
 * The caller's level on a site. Organization admins are admin on every site. Otherwise a role override of the user
 * on the site wins (null: no access), then the overrides of the user's teams (the highest role; no access when
 * they all say none), then the organization role. Guests (members without a role) and outsiders see no site
 * (404) unless an override gives them one; outsiders never do.
 */
function siteLevel(actor: Actor, facts: SiteAccessFacts): AccessLevel | null {
  if (actor.kind === 'reader') return readerLevel(actor, { organizationId: facts.organizationId, id: facts.siteId });
  const m = membershipOf(actor, facts.organizationId);
  if (!m || actor.kind !== 'user') return null;
  if (m.role === 'admin') return 'admin';
  const grants = facts.grants ?? [];
  const own = grants.find((g) => g.kind === 'user' && g.id === actor.userId);
  if (own) return own.role;
  const byTeams = grants.filter((g) => g.kind === 'team' && m.teams.includes(g.id));
  if (byTeams.length) return highestRole(byTeams.map((g) => g.role));
  return m.role;
}

/** Sites and everything in them (sections, site spaces, share links, adaptive schema): one policy. */
export const sitePolicy = definePolicy({
  resource: 'Site',
  role: siteLevel,
  actions: {
    /** GET the site, its structure, sections, site spaces, share links, adaptive schema, published view. */
    view: 'read',
    /** PATCH settings, the customization (of the site and its site spaces), publish and unpublish. */
    update: 'create',
    /** Sections, site spaces, their order. */
    editStructure: 'create',
    /** Create, change and delete share links. */
    manageShareLinks: 'create',
    /** PUT the adaptive schema. */
    editAdaptiveSchema: 'create',
    /** DELETE the site. */
    delete: 'admin',
    /** List the users and teams with a role override on the site. */
    viewPermissions: 'read',
    /** Give users and teams a role override on the site, change or remove it (`inviteToSite`…). */
    managePermissions: 'admin',
  },
  describe: {
    update: 'Changing the site settings',
    editStructure: 'Changing the site structure',
    manageShareLinks: 'Managing the share links of the site',
    editAdaptiveSchema: 'Changing the adaptive schema of the site',
    delete: 'Deleting the site',
    viewPermissions: 'Viewing the permissions of the site',
    managePermissions: 'Managing the permissions of the site',
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
  role: (actor: Actor, org: { organizationId: string }) => organizationLevel(actor, org.organizationId),
  /** Listing: every member may ask, guests too (what each sees is decided site by site). */
  actions: { list: 'guest', create: 'create' },
  refusals: { create: 'Creating a site needs the `create` role in the organization' },
});
