import { notFound } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';
import type { IIntegration } from '../integrations/integration.entity.ts';
import { loadIntegrationFor } from '../integrations/integration.loader.ts';
import type { IInstallation } from './installation.entity.ts';
import { installationPolicy, type InstallationAction } from './installation.policy.ts';
import { installationRepository } from './installation.repository.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor'>;

/**
 * An installation of a visible integration the caller may `action` on: 404 when either does not exist or
 * is not visible (an installation in an organization the caller is not a member of), 403 when too low.
 */
export async function loadInstallationFor(ctx: Ctx, integrationName: string, id: string, action: InstallationAction): Promise<{ integration: IIntegration; installation: IInstallation }> {
  const integration = await loadIntegrationFor(ctx, integrationName, 'useInstallations');
  const installation = await installationRepository.findById(ctx.em, integration.name, id);
  if (!installation) throw notFound('Installation');
  installationPolicy.assert(ctx.actor, { organizationId: installation.organizationId, ownerId: integration.ownerId }, action);
  return { integration, installation };
}
