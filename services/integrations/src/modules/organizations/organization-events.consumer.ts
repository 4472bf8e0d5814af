import { Events } from '@quire/contracts';
import { defineConsumer } from '@quire/kit';
import { organizationIntegrationsDeleter } from '../../commands/integration-unpublisher.ts';

export const ORGANIZATION_EVENTS_CONSUMER = 'integrations-organization-events';

/** An organization deleted: its integrations (with their installations) and its installations go. */
export const organizationEventsConsumer = defineConsumer(
  ORGANIZATION_EVENTS_CONSUMER,
  [Events.organizationDeleted],
  { 'organization.deleted': (e, em) => organizationIntegrationsDeleter(em, { organizationId: e.data.organization }) },
  { ordered: true },
);
