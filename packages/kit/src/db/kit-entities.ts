import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Events written in the same transaction as the change, relayed to the bus after commit. */
export const OutboxEvent = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox',
  properties: {
    seq: p.bigint('number').primary().autoincrement(),
    id: p.string().unique(),
    subject: p.string(),
    type: p.string(),
    payload: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime(),
    attempts: p.integer().default(0),
    publishedAt: p.datetime().nullable(),
  },
});
export type IOutboxEvent = InferEntity<typeof OutboxEvent>;

/** Events a consumer has handled, so a redelivery is acknowledged without being applied twice. */
export const ProcessedEvent = defineEntity({
  name: 'ProcessedEvent',
  tableName: 'processed_event',
  properties: {
    consumer: p.string().primary(),
    eventId: p.string().primary(),
    processedAt: p.datetime(),
  },
});

export const kitEntities = [OutboxEvent, ProcessedEvent];
