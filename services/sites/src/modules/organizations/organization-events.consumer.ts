import type { MikroORM } from '@mikro-orm/postgresql';
import { Events } from '@quire/contracts';
import { idempotentConsumer, type DurableConsumerSpec } from '@quire/kit';
import { organizationSitesDropper } from '../../commands/site-deleter.ts';

export const ORGANIZATION_EVENTS_CONSUMER = 'sites-organization-events';

/** A deleted organization's sites go (with their sections, site spaces and share links). */
export function organizationEventsConsumer(orm: MikroORM, name = ORGANIZATION_EVENTS_CONSUMER): DurableConsumerSpec {
  return idempotentConsumer(
    orm,
    name,
    [Events.organizationDeleted],
    {
      'organization.deleted': async (e, em) => {
        await organizationSitesDropper(em, { organizationId: e.data.organization });
      },
    },
    { ordered: true },
  );
}
