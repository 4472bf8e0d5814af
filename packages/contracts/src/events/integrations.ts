import { z } from 'zod';
import { eventsOf } from './define.ts';

const integration = z.string().describe('Integration name');
const organization = z.string().describe('Id of the organization owning the integration');
const installation = z.string().describe('Installation id');
const target = z.string().describe('Id of the organization the integration is installed in');

const event = eventsOf('integrations');

/** Events of the integrations service (`quire.integrations.<entity>.<verb>`). Secrets never travel in them. */
export const integrationsEvents = {
  /** Published for the first time (`version` 1) or republished (a new version). */
  integrationPublished: event(
    'integration.published',
    z.object({ integration, organization, version: z.number().int(), visibility: z.string() }),
  ),
  /** Unpublished: the integration and every installation of it (`installations`) are gone. */
  integrationUnpublished: event(
    'integration.unpublished',
    z.object({ integration, organization, installations: z.array(z.string()) }),
  ),
  integrationInstallationCreated: event(
    'integration-installation.created',
    z.object({ integration, installation, organization: target }),
  ),
  integrationInstallationUpdated: event(
    'integration-installation.updated',
    z.object({
      integration,
      installation,
      organization: target,
      fields: z.array(z.string()).describe('Names of the fields that changed'),
    }),
  ),
  integrationInstallationDeleted: event(
    'integration-installation.deleted',
    z.object({ integration, installation, organization: target }),
  ),
} as const;
