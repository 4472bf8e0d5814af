import { z } from 'zod';
export { defineEvent, type EventDef } from './define.ts';
import type { EventDef } from './define.ts';
import { orgAdminEvents } from './org-admin.ts';
import { contentEvents } from './content.ts';

/** What travels on the bus: an envelope around the event's data. */
export const EventEnvelopeSchema = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
export type EventOf<E extends EventDef> = { id: string; type: E['type']; occurredAt: string; data: z.output<E['data']> };

/** Every event of the platform; each service's events are declared in its own module. */
export const Events = { ...orgAdminEvents, ...contentEvents } as const;
export type EventName = keyof typeof Events;

export const ALL_EVENTS: EventDef[] = Object.values(Events);
export const eventByType = new Map<string, EventDef>(ALL_EVENTS.map((e) => [e.type, e]));
/** Events after which an actor's memberships may have changed: the gateway evicts its cache on them. */
export const ACTOR_EVICTING_EVENTS: EventDef[] = [Events.memberAdded, Events.memberRoleChanged, Events.memberRemoved, Events.tokenRevoked, Events.organizationDeleted, Events.teamMemberAdded, Events.teamMemberRemoved, Events.teamDeleted];
