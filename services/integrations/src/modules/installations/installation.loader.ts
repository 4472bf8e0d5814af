import type { List } from '@quire/contracts';
import { notFound, paginate, type PageRequest } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';
import { assertConfigurationFits } from '../integrations/configuration-schema.ts';
import type { IIntegration } from '../integrations/integration.entity.ts';
import { loadIntegrationFor } from '../integrations/integration.loader.ts';
import { organizationIntegrationsPolicy } from '../organizations/organization.policy.ts';
import { Installation, type IInstallation } from './installation.entity.ts';
import { installationPolicy, listableInstallations, type InstallationAction } from './installation.policy.ts';
import { installationRepository } from './installation.repository.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor'>;

/**
 * An installation of a visible integration the caller may `action` on: 404 when either does not exist or
 * is not visible (an installation in an organization the caller is not a member of), 403 when too low.
 */
export async function loadInstallationFor(
  ctx: Ctx,
  integrationName: string,
  id: string,
  action: InstallationAction,
): Promise<{ integration: IIntegration; installation: IInstallation }> {
  const integration = await loadIntegrationFor(ctx, integrationName, 'useInstallations');
  const installation = await installationRepository.findById(ctx.em, integration.name, id);
  if (!installation) throw notFound('Installation');
  installationPolicy.assert(
    ctx.actor,
    { organizationId: installation.organizationId, ownerId: integration.ownerId },
    action,
  );
  return { integration, installation };
}

/** An integration the caller may install in `organizationId` (visible to it, and it administers the organization). */
export async function loadIntegrationToInstall(ctx: Ctx, integrationName: string, organizationId: string) {
  const integration = await loadIntegrationFor(ctx, integrationName, 'useInstallations');
  organizationIntegrationsPolicy.assert(ctx.actor, { organizationId }, 'install');
  return integration;
}

/**
 * An installation the caller may update (`loadInstallationFor`), with a new `configuration` (when one is given)
 * checked against the integration's form: 400 naming the field.
 */
export async function loadInstallationToUpdate(
  ctx: Ctx,
  input: { integrationName: string; installationId: string; configuration?: Record<string, unknown> | undefined },
): Promise<{ integration: IIntegration; installation: IInstallation }> {
  const loaded = await loadInstallationFor(ctx, input.integrationName, input.installationId, 'update');
  if (input.configuration !== undefined)
    assertConfigurationFits(loaded.integration.configurations, input.configuration);
  return loaded;
}

/**
 * A page of an integration's installations the caller may list (all of them for its owner's admins, else those
 * of the organizations it administers), by an `externalId` when given.
 */
export async function loadInstallations(
  ctx: Ctx,
  input: PageRequest & { integrationName: string; externalId?: string | undefined },
): Promise<List<IInstallation>> {
  const integration = await loadIntegrationFor(ctx, input.integrationName, 'useInstallations');
  const where = await installationRepository.visibleWhere(
    ctx.em,
    integration.name,
    listableInstallations(ctx.actor, integration.ownerId),
    input.externalId,
  );
  if (!where) return { count: 0, items: [] };
  return paginate(ctx.em, Installation, where, { createdAt: 'asc', id: 'asc' }, input, (i) => i);
}
