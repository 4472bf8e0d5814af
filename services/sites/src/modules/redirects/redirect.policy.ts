import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel, type AccessLevel } from '@quire/kit';

/** The caller's level on a site's redirects: its organization role (guests and outsiders: 404), as for the site. */
function redirectLevel(actor: Actor, facts: { organizationId: string }): AccessLevel | null {
  const level = organizationLevel(actor, facts.organizationId);
  return level === 'guest' ? null : level;
}

/** The redirects of a site: members read them, those who change the site's structure manage them. */
export const redirectPolicy = definePolicy({
  resource: 'Site',
  role: redirectLevel,
  actions: {
    /** List the redirects, resolve a source. */
    view: 'read',
    /** Create, update, delete, bulk upsert, publish drafts. */
    manage: 'create',
  },
  describe: { manage: 'Managing the redirects of the site' },
});
export type RedirectAction = keyof typeof redirectPolicy.actions;
