import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Events } from '@quire/contracts';
import { idempotentConsumer, type DurableConsumerSpec } from '@quire/kit';

export const SPACE_EVENTS_CONSUMER = 'sites-space-events';

/** Updates the projection row unless it already reflects a later event. */
async function apply(em: EntityManager, space: string, occurredAt: string, set: Record<string, unknown>): Promise<void> {
  const schema = em.config.get('schema');
  const columns = Object.keys(set);
  await em.getConnection().execute(
    `update "${schema}"."content_space" set ${columns.map((c) => `${c} = ?`).join(', ')}, event_at = ?
     where id = ? and (event_at is null or event_at <= ?)`,
    [...Object.values(set), occurredAt, space, occurredAt] as never[],
    'run',
    em.getTransactionContext(),
  );
}

/**
 * Keeps the `content_space` projection from the content service's space events: created and transferred
 * (re-homed in the new organization), updated (title), deleted (hidden) and restored, purged (dropped).
 * One durable consumer over `content.space.*` rather than one per event type, so a space's events apply
 * in the order they happened; `event_at` also refuses an older event redelivered late.
 */
export function spaceEventsConsumer(orm: MikroORM, name = SPACE_EVENTS_CONSUMER): DurableConsumerSpec {
  const events = [Events.spaceCreated, Events.spaceUpdated, Events.spaceDeleted, Events.spaceRestored, Events.spacePurged, Events.spaceTransferred] as const;
  const spec = idempotentConsumer(orm, name, events, {
    'space.created': async (event, em) => {
      const schema = em.config.get('schema');
      await em.getConnection().execute(
        `insert into "${schema}"."content_space" (id, organization_id, title, created_at, deleted_at, event_at) values (?, ?, ?, ?, null, ?)
         on conflict (id) do nothing`,
        [event.data.space, event.data.organization, event.data.title, event.occurredAt, event.occurredAt],
        'run',
        em.getTransactionContext(),
      );
    },
    'space.updated': (event, em) => apply(em, event.data.space, event.occurredAt, { title: event.data.title }),
    'space.deleted': (event, em) => apply(em, event.data.space, event.occurredAt, { deleted_at: event.data.deletedAt }),
    'space.restored': (event, em) => apply(em, event.data.space, event.occurredAt, { deleted_at: null, title: event.data.title }),
    'space.transferred': (event, em) => apply(em, event.data.space, event.occurredAt, { organization_id: event.data.organization, title: event.data.title }),
    'space.purged': async (event, em) => {
      const schema = em.config.get('schema');
      await em.getConnection().execute(`delete from "${schema}"."content_space" where id = ?`, [event.data.space], 'run', em.getTransactionContext());
    },
  });
  return { ...spec, subjects: [`${Events.spaceCreated.service}.space.*`] };
}
