import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel, type AccessLevel } from '@quire/kit';

/** The caller's level on a site's publishing auth: its organization role (guests and outsiders: 404). */
function authLevel(actor: Actor, facts: { organizationId: string }): AccessLevel | null {
  const level = organizationLevel(actor, facts.organizationId);
  return level === 'guest' ? null : level;
}

/**
 * The visitor authentication of a site. Its private key lets whoever holds it sign visitor tokens that open the
 * site, like a share link's key: only the members who manage share links (`create`) see or change it.
 */
export const publishingAuthPolicy = definePolicy({
  resource: 'Site',
  role: authLevel,
  actions: {
    /** GET the settings with the private key. */
    view: 'create',
    /** PATCH the settings, regenerate the key. */
    update: 'create',
  },
  describe: {
    view: 'Reading the visitor authentication (its private key) of the site',
    update: 'Changing the visitor authentication of the site',
  },
});
