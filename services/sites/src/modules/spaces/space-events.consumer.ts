import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { spaceRemover } from '../../commands/space-removal.ts';
import { contentSpaceRepository as spaces } from './content-space.repository.ts';

export const SPACE_EVENTS_CONSUMER = 'sites-space-events';

/**
 * Keeps the `content_space` projection from the content service's space events: created and transferred
 * (re-homed in the new organization), updated (title), deleted (hidden) and restored, purged (dropped).
 * A deleted space's site spaces are hidden while it is in the trash (reads skip them); a purged space leaves
 * every site, a transferred one the sites of its former organization (`space-removal.ts`).
 * Ordered (one subscription over `content.space.*`), so a space's events apply in the order they happened;
 * `event_at` also refuses an older event redelivered late.
 */
export const spaceEventsConsumer = defineConsumer(
  SPACE_EVENTS_CONSUMER,
  [
    Events.spaceCreated,
    Events.spaceUpdated,
    Events.spaceDeleted,
    Events.spaceRestored,
    Events.spacePurged,
    Events.spaceTransferred,
  ],
  {
    'space.created': (e, em) =>
      spaces.insert(em, {
        id: e.data.space,
        organizationId: e.data.organization,
        title: e.data.title,
        at: e.occurredAt,
      }),
    'space.updated': (e, em) => spaces.applyAt(em, e.data.space, e.occurredAt, { title: e.data.title }),
    'space.deleted': (e, em) => spaces.applyAt(em, e.data.space, e.occurredAt, { deleted_at: e.data.deletedAt }),
    'space.restored': (e, em) =>
      spaces.applyAt(em, e.data.space, e.occurredAt, { deleted_at: null, title: e.data.title }),
    'space.transferred': async (e, em) => {
      await spaces.applyAt(em, e.data.space, e.occurredAt, {
        organization_id: e.data.organization,
        title: e.data.title,
      });
      await spaceRemover(em, { spaceId: e.data.space, keepOrganization: e.data.organization });
    },
    'space.purged': async (e, em) => {
      await spaces.remove(em, e.data.space);
      await spaceRemover(em, { spaceId: e.data.space });
    },
  },
  { ordered: true },
);
