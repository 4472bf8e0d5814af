import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { EventDef, EventEnvelope, EventOf } from '@quire/contracts';
import { ProcessedEvent } from '../db/kit-entities.ts';
import type { DurableConsumerSpec } from './bus.ts';

type HandlerMap<Defs extends readonly EventDef[]> = {
  [T in Defs[number]['type']]: (event: EventOf<Extract<Defs[number], { type: T }>>, em: EntityManager) => Promise<void>;
};

export interface ConsumerOptions {
  /**
   * Apply the events in the order they happened across their types: one subscription per entity
   * (`content.space.*`) instead of one per event type, so `space.deleted` never overtakes `space.created`.
   * Events of other types on those subjects are acknowledged and skipped.
   */
  ordered?: boolean;
}

/** `content.space.created` → `content.space.*`: one wildcard per service and entity. */
function entityWildcards(events: readonly EventDef[]): string[] {
  return [...new Set(events.map((e) => `${e.subject.slice(0, e.subject.lastIndexOf('.'))}.*`))];
}

/**
 * The one way a service consumes events: a durable consumer whose handlers run in one transaction with
 * the dedupe row. An event id already processed by this consumer is skipped, so a redelivery never
 * applies twice. The payload is parsed with the contract schema (no casts); the bus acknowledges after
 * the commit.
 */
export function idempotentConsumer<const Defs extends readonly EventDef[]>(
  orm: MikroORM,
  name: string,
  events: Defs,
  handlers: HandlerMap<Defs>,
  opts: ConsumerOptions = {},
): DurableConsumerSpec {
  const byType = new Map<string, EventDef>(events.map((e) => [e.type, e]));
  return {
    name,
    subjects: opts.ordered ? entityWildcards(events) : events.map((e) => e.subject),
    handler: async (envelope: EventEnvelope) => {
      const def = byType.get(envelope.type);
      if (!def) return;
      const data = def.data.parse(envelope.data);
      await orm.em.fork({ freshEventManager: false }).transactional(async (em) => {
        const inserted = await em
          .createQueryBuilder(ProcessedEvent)
          .insert({ consumer: name, eventId: envelope.id, processedAt: new Date() })
          .onConflict(['consumer', 'eventId'])
          .ignore()
          .execute('run');
        if (!inserted.affectedRows) return;
        const handler = (handlers as Record<string, (e: unknown, em: EntityManager) => Promise<void>>)[def.type]!;
        await handler({ ...envelope, data }, em);
      });
    },
  };
}

/**
 * A service's consumer of some events, declared once: called with the service's ORM (and, in tests, another durable
 * name), it is the `idempotentConsumer` named `defaultName` that applies `handlers` to `events`.
 */
export function defineConsumer<const Defs extends readonly EventDef[]>(
  defaultName: string,
  events: Defs,
  handlers: HandlerMap<Defs>,
  opts: ConsumerOptions = {},
): (orm: MikroORM, name?: string) => DurableConsumerSpec {
  return (orm, name = defaultName) => idempotentConsumer(orm, name, events, handlers, opts);
}
