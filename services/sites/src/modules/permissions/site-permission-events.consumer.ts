import type { MikroORM } from '@mikro-orm/postgresql';
import { Events } from '@quire/contracts';
import { idempotentConsumer, type DurableConsumerSpec } from '@quire/kit';
import { siteGrantRepository } from './site-grant.repository.ts';

export const SITE_PERMISSION_EVENTS_CONSUMER = 'sites-permission-events';

/** A removed member's site overrides go with them, a deleted team's with it, a deleted organization's all. */
export function sitePermissionEventsConsumer(
  orm: MikroORM,
  name = SITE_PERMISSION_EVENTS_CONSUMER,
): DurableConsumerSpec {
  return idempotentConsumer(
    orm,
    name,
    [Events.memberRemoved, Events.teamDeleted, Events.organizationDeleted],
    {
      'member.removed': (e, em) =>
        siteGrantRepository.deletePrincipal(em, e.data.organization, { kind: 'user', id: e.data.user }),
      'team.deleted': (e, em) =>
        siteGrantRepository.deletePrincipal(em, e.data.organization, { kind: 'team', id: e.data.team }),
      'organization.deleted': (e, em) => siteGrantRepository.deleteOrganization(em, e.data.organization),
    },
    { ordered: true },
  );
}
