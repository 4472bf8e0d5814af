import { definePolicy } from '@quire/kit';
import { readerOrMemberLevel } from '../sites/site.policy.ts';

/**
 * The redirects of a site: members read them, those who change the site's structure manage them; a reader of the
 * site (published-content token) resolves a source to its target, as the site does.
 */
export const redirectPolicy = definePolicy({
  resource: 'Site',
  role: readerOrMemberLevel,
  actions: {
    /** List the redirects, resolve a source. */
    view: 'read',
    /** Create, update, delete, bulk upsert, publish drafts. */
    manage: 'create',
  },
  describe: { manage: 'Managing the redirects of the site' },
});
export type RedirectAction = keyof typeof redirectPolicy.actions;
