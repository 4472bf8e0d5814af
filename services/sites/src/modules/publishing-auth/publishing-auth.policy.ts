import { definePolicy } from '@quire/kit';
import { organizationMemberLevel } from '../sites/site.policy.ts';

/**
 * The visitor authentication of a site. Its private key lets whoever holds it sign visitor tokens that open the
 * site, like a share link's key: only the members who manage share links (`create`) see or change it.
 */
export const publishingAuthPolicy = definePolicy({
  resource: 'Site',
  role: organizationMemberLevel,
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
