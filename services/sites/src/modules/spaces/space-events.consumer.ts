import type { MikroORM } from '@mikro-orm/postgresql';
import { Events } from '@quire/contracts';
import { idempotentConsumer } from '@quire/kit';
import { ContentSpace } from './content-space.entity.ts';

export const SPACE_EVENTS_CONSUMER = 'sites-space-events';

/** Keeps the `content_space` projection from the content service's events. */
export function spaceEventsConsumer(orm: MikroORM, name = SPACE_EVENTS_CONSUMER) {
  return idempotentConsumer(orm, name, [Events.spaceCreated], {
    'space.created': async (event, em) => {
      await em.upsert(ContentSpace, {
        id: event.data.space,
        organizationId: event.data.organization,
        title: event.data.title,
        createdAt: new Date(event.occurredAt),
      });
    },
  });
}
