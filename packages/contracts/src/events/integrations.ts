import { z } from 'zod';
import { defineEvent } from './define.ts';

const integration = z.string().describe('Integration name');
const organization = z.string().describe('Id of the organization owning the integration');
const installation = z.string().describe('Installation id');
const target = z.string().describe('Id of the organization the integration is installed in');

/** Events of the integrations service (`quire.integrations.<entity>.<verb>`). Secrets never travel in them. */
export const integrationsEvents = {
  /** Published for the first time (`version` 1) or republished (a new version). */
  integrationPublished: defineEvent(
    'integrations',
    'integration.published',
    z.object({ integration, organization, version: z.number().int(), visibility: z.string() }),
  ),
  /** Unpublished: the integration and every installation of it (`installations`) are gone. */
  integrationUnpublished: defineEvent(
    'integrations',
    'integration.unpublished',
    z.object({ integration, organization, installations: z.array(z.string()) }),
  ),
  integrationInstallationCreated: defineEvent(
    'integrations',
    'integration-installation.created',
    z.object({ integration, installation, organization: target }),
  ),
  integrationInstallationUpdated: defineEvent(
    'integrations',
    'integration-installation.updated',
    z.object({
      integration,
      installation,
      organization: target,
      fields: z.array(z.string()).describe('Names of the fields that changed'),
    }),
  ),
  integrationInstallationDeleted: defineEvent(
    'integrations',
    'integration-installation.deleted',
    z.object({ integration, installation, organization: target }),
  ),
} as const;
