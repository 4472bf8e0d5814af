import type { MikroORM } from '@mikro-orm/postgresql';
import { Events } from '@quire/contracts';
import { idempotentConsumer, type DurableConsumerSpec } from '@quire/kit';
import { organizationIntegrationsDeleter } from '../../commands/integration-unpublisher.ts';

export const ORGANIZATION_EVENTS_CONSUMER = 'integrations-organization-events';

/** An organization deleted: its integrations (with their installations) and its installations go. */
export function organizationEventsConsumer(orm: MikroORM, name = ORGANIZATION_EVENTS_CONSUMER): DurableConsumerSpec {
  return idempotentConsumer(
    orm,
    name,
    [Events.organizationDeleted] as const,
    { 'organization.deleted': (e, em) => organizationIntegrationsDeleter(em, { organizationId: e.data.organization }) },
    { ordered: true },
  );
}
