import { z } from 'zod';
import { RoleOrGuestSchema } from '../common.ts';
import type { ServiceName } from '../operation.ts';

export interface EventDef<T extends string = string, D extends z.ZodType = z.ZodType> {
  type: T;
  service: ServiceName;
  /** Subject below the bus prefix: `<prefix>.<service>.<entity>.<verb>`, the prefix being `quire` unless configured. */
  subject: string;
  data: D;
}

export const defineEvent = <const T extends string, D extends z.ZodType>(service: ServiceName, type: T, data: D): EventDef<T, D> => ({
  type,
  service,
  subject: `${service}.${type}`,
  data,
});

/** What travels on the bus: an envelope around the event's data. */
export const EventEnvelopeSchema = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
export type EventOf<E extends EventDef> = { id: string; type: E['type']; occurredAt: string; data: z.output<E['data']> };

const membership = z.object({ organization: z.string(), user: z.string() });

export const Events = {
  organizationCreated: defineEvent('org-admin', 'organization.created', z.object({ organization: z.string(), title: z.string(), createdBy: z.string().optional() })),
  organizationDeleted: defineEvent('org-admin', 'organization.deleted', z.object({ organization: z.string() })),
  memberAdded: defineEvent('org-admin', 'member.added', membership.extend({ role: RoleOrGuestSchema })),
  memberRoleChanged: defineEvent('org-admin', 'member.role-changed', membership.extend({ role: RoleOrGuestSchema, previousRole: RoleOrGuestSchema })),
  memberRemoved: defineEvent('org-admin', 'member.removed', membership),
  tokenRevoked: defineEvent('org-admin', 'token.revoked', z.object({ user: z.string(), token: z.string() })),
  spaceCreated: defineEvent('content', 'space.created', z.object({ space: z.string(), organization: z.string(), title: z.string(), parent: z.string().optional() })),
} as const;
export type EventName = keyof typeof Events;

export const ALL_EVENTS: EventDef[] = Object.values(Events);
export const eventByType = new Map<string, EventDef>(ALL_EVENTS.map((e) => [e.type, e]));
/** Events after which an actor's memberships may have changed: the gateway evicts its cache on them. */
export const ACTOR_EVICTING_EVENTS = [Events.memberAdded, Events.memberRoleChanged, Events.memberRemoved, Events.tokenRevoked, Events.organizationDeleted];
