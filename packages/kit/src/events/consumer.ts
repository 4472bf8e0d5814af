import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { EventDef, EventEnvelope, EventOf } from '@quire/contracts';
import { ProcessedEvent } from '../db/kit-entities.ts';
import type { DurableConsumerSpec } from './bus.ts';

type HandlerMap<Defs extends readonly EventDef[]> = {
  [T in Defs[number]['type']]: (event: EventOf<Extract<Defs[number], { type: T }>>, em: EntityManager) => Promise<void>;
};

/**
 * A durable consumer whose handlers run in one transaction with the dedupe row: an event id already
 * processed by this consumer is skipped, so a redelivery never applies twice. The payload is parsed
 * with the contract schema (no casts); the bus acknowledges after the commit.
 */
export function idempotentConsumer<const Defs extends readonly EventDef[]>(
  orm: MikroORM,
  name: string,
  events: Defs,
  handlers: HandlerMap<Defs>,
): DurableConsumerSpec {
  const byType = new Map<string, EventDef>(events.map((e) => [e.type, e]));
  return {
    name,
    subjects: events.map((e) => e.subject),
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
