import type { List } from '@quire/contracts';
import { conflict, notFound } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';
import { organizationIntegrationsPolicy } from '../organizations/organization.policy.ts';
import type { IIntegration } from './integration.entity.ts';
import { integrationPolicy, listableOwners, type IntegrationAction } from './integration.policy.ts';
import { integrationRepository, type IntegrationFilters } from './integration.repository.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor'>;

export const factsOf = (i: IIntegration) => ({ ownerId: i.ownerId, visibility: i.visibility });

/** The integration the caller may `action` on: 404 when it does not exist or is not visible, 403 when its level is too low. */
export async function loadIntegrationFor(ctx: Ctx, name: string, action: IntegrationAction): Promise<IIntegration> {
  const integration = await integrationRepository.findByName(ctx.em, name);
  if (!integration) throw notFound('Integration');
  integrationPolicy.assert(ctx.actor, factsOf(integration), action);
  return integration;
}

/**
 * The current version of an integration about to be published by `organizationId` (null for a new name), once the
 * caller may publish for the organization (its admins: 403): names are global, so a name another organization
 * owns is a 409, visible to the caller or not.
 */
export async function loadForPublish(ctx: Ctx, name: string, organizationId: string): Promise<IIntegration | null> {
  organizationIntegrationsPolicy.assert(ctx.actor, { organizationId }, 'publish');
  const existing = await integrationRepository.findByName(ctx.em, name);
  if (existing && existing.ownerId !== organizationId)
    throw conflict(`The integration name \`${name}\` is taken by another organization`);
  return existing;
}

/** A page of the integrations the caller sees in lists (public ones, and all those of its organizations). */
export const loadIntegrations = (
  ctx: Ctx,
  filters: IntegrationFilters,
  req: { page?: string | undefined; limit?: number | undefined },
): Promise<List<IIntegration>> =>
  integrationRepository.list(ctx.em, { memberOf: listableOwners(ctx.actor) }, filters, req);
