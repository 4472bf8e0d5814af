import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { siteGrantRepository } from './site-grant.repository.ts';

export const SITE_PERMISSION_EVENTS_CONSUMER = 'sites-permission-events';

/** A removed member's site overrides go with them, a deleted team's with it, a deleted organization's all. */
export const sitePermissionEventsConsumer = defineConsumer(
  SITE_PERMISSION_EVENTS_CONSUMER,
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
