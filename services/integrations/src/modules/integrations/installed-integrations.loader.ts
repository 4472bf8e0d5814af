import type { List } from '@quire/contracts';
import type { IntegrationsContext } from '../../trpc.ts';
import { organizationIntegrationsPolicy } from '../organizations/organization.policy.ts';
import { requireViewableSpace } from '../spaces/content-spaces.ts';
import type { IIntegration } from './integration.entity.ts';
import { integrationRepository, type IntegrationFilters } from './integration.repository.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor' | 'peers' | 'requestId'>;

/** The most integrations a space's list holds (it has no pages, as GitBook's). */
const SPACE_LIST_MAX = 1000;

/** A page of the integrations installed in an organization, for its members (404 for anyone else). */
export async function loadOrganizationIntegrations(
  ctx: Ctx,
  organizationId: string,
  filters: IntegrationFilters,
  req: { page?: string | undefined; limit?: number | undefined },
): Promise<List<IIntegration>> {
  organizationIntegrationsPolicy.assert(ctx.actor, { organizationId }, 'listInstalled');
  return integrationRepository.list(ctx.em, { installedIn: organizationId }, filters, req);
}

/**
 * The integrations installed for a space, for those who can view it (content says who: 404 for anyone else): its
 * organization's installations for all spaces, and those installed on it.
 */
export async function loadSpaceIntegrations(
  ctx: Ctx,
  spaceId: string,
  filters: IntegrationFilters = {},
): Promise<List<IIntegration>> {
  const space = await requireViewableSpace(ctx, spaceId);
  return integrationRepository.list(ctx.em, { installedIn: space.organization, space: space.id }, filters, {
    limit: SPACE_LIST_MAX,
  });
}
