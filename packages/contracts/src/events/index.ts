import { z } from 'zod';
export { defineEvent, type EventDef } from './define.ts';
import type { EventDef } from './define.ts';
import { orgAdminEvents } from './org-admin.ts';
import { contentEvents } from './content.ts';
import { sitesEvents } from './sites.ts';
import { integrationsEvents } from './integrations.ts';
import { auditEvents } from './audit.ts';
export { AUDIT_EVENT_OF } from './audit.ts';

/** What travels on the bus: an envelope around the event's data. */
export const EventEnvelopeSchema = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
export type EventOf<E extends EventDef> = {
  id: string;
  type: E['type'];
  occurredAt: string;
  data: z.output<E['data']>;
};

/** Every event of the platform; each service's events are declared in its own module. */
export const Events = {
  ...orgAdminEvents,
  ...contentEvents,
  ...sitesEvents,
  ...integrationsEvents,
  ...auditEvents,
} as const;
export type EventName = keyof typeof Events;

export const ALL_EVENTS: EventDef[] = Object.values(Events);
export const eventByType = new Map<string, EventDef>(ALL_EVENTS.map((e) => [e.type, e]));
/** Whose resolved actor (memberships, roles, teams) an event makes stale: some users, or every member of some organizations. */
export interface StaleActors {
  users: string[];
  organizations: string[];
}

const byUser = (d: { user: string }): StaleActors => ({ users: [d.user], organizations: [] });
const byOrganization = (d: { organization: string }): StaleActors => ({ users: [], organizations: [d.organization] });
const staleness = <E extends EventDef>(def: E, of: (data: z.output<E['data']>) => StaleActors) =>
  [def, (data: unknown) => of(def.data.parse(data) as z.output<E['data']>)] as const;

const STALENESS = new Map<string, { def: EventDef; of: (data: unknown) => StaleActors }>(
  [
    staleness(Events.memberAdded, byUser),
    staleness(Events.memberRoleChanged, byUser),
    staleness(Events.memberRemoved, byUser),
    // A new token is told to the gateways too: their known-token filter learns it (and its user's actor is refreshed).
    staleness(Events.tokenIssued, byUser),
    staleness(Events.tokenRevoked, byUser),
    staleness(Events.teamMemberAdded, byUser),
    staleness(Events.teamMemberRemoved, byUser),
    staleness(Events.organizationDeleted, byOrganization),
    staleness(Events.teamDeleted, byOrganization),
  ].map(([def, of]) => [def.type, { def, of }]),
);

/** Events after which an actor's memberships may have changed (the gateway evicts its cache on them), and new tokens. */
export const ACTOR_EVICTING_EVENTS: EventDef[] = [...STALENESS.values()].map((s) => s.def);

/** The actors an event makes stale, its payload parsed with the event's schema (none for other events). */
export function staleActorsOf(envelope: EventEnvelope): StaleActors {
  return STALENESS.get(envelope.type)?.of(envelope.data) ?? { users: [], organizations: [] };
}
