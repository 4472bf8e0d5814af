import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { organizationFontsDropper } from '../../commands/custom-font-commands.ts';
import { organizationSitesDropper } from '../../commands/site-deleter.ts';

export const ORGANIZATION_EVENTS_CONSUMER = 'sites-organization-events';

/** A deleted organization's sites go (with their sections, site spaces and share links), and its custom fonts. */
export const organizationEventsConsumer = defineConsumer(
  ORGANIZATION_EVENTS_CONSUMER,
  [Events.organizationDeleted],
  {
    'organization.deleted': async (e, em) => {
      await organizationSitesDropper(em, { organizationId: e.data.organization });
      await organizationFontsDropper(em, { organizationId: e.data.organization });
    },
  },
  { ordered: true },
);
