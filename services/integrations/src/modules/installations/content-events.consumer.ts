import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { targetInstallationsDeleter } from '../../commands/content-installation-commands.ts';

export const SPACE_EVENTS_CONSUMER = 'integrations-space-events';
export const SITE_EVENTS_CONSUMER = 'integrations-site-events';

/** A space purged from the trash (a deleted one may still be restored, its installations with it): they go. */
export const spaceEventsConsumer = defineConsumer(SPACE_EVENTS_CONSUMER, [Events.spacePurged], {
  'space.purged': (e, em) => targetInstallationsDeleter(em, { kind: 'space', targetId: e.data.space }),
});

/** A site deleted: the installations on it go. */
export const siteEventsConsumer = defineConsumer(SITE_EVENTS_CONSUMER, [Events.siteDeleted], {
  'site.deleted': (e, em) => targetInstallationsDeleter(em, { kind: 'site', targetId: e.data.site }),
});
