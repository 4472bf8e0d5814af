import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import type { IIntegration } from '../modules/integrations/integration.entity.ts';
import { installationRepository } from '../modules/installations/installation.repository.ts';
import { integrationRepository } from '../modules/integrations/integration.repository.ts';
import { installationDeleter } from './installation-commands.ts';

/**
 * Unpublishes an integration: it, its versions and every installation of it are deleted (the installations
 * and versions cascade in the database); `integration.unpublished` names the installations that went.
 */
export async function integrationUnpublisher(
  em: EntityManager,
  { integration }: { integration: IIntegration },
): Promise<string[]> {
  const installations = await installationRepository.idsOf(em, integration.name);
  em.remove(integration);
  recordEvent(em, Events.integrationUnpublished, {
    integration: integration.name,
    organization: integration.ownerId,
    installations,
  });
  return installations;
}

/**
 * An organization was deleted: every integration it owns is unpublished (with its installations) and every
 * installation in it is deleted, each with its event.
 */
export async function organizationIntegrationsDeleter(
  em: EntityManager,
  { organizationId }: { organizationId: string },
): Promise<void> {
  for (const integration of await integrationRepository.ownedBy(em, organizationId))
    await integrationUnpublisher(em, { integration });
  for (const installation of await installationRepository.inOrganization(em, organizationId))
    await installationDeleter(em, { installation });
}
