import type { List } from '@quire/contracts';
import type { IntegrationsContext } from '../../trpc.ts';
import { organizationIntegrationsPolicy } from '../organizations/organization.policy.ts';
import { requireViewableSite } from '../sites/sites-peer.ts';
import { requireViewableSpace } from '../spaces/content-spaces.ts';
import type { IIntegration } from './integration.entity.ts';
import { integrationRepository, type IntegrationFilters } from './integration.repository.ts';

type Ctx = Pick<IntegrationsContext, 'em' | 'actor' | 'peers' | 'requestId'>;

/** The most integrations a space's or a site's list holds (it has no pages, as GitBook's). */
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
  return integrationRepository.list(
    ctx.em,
    { installedIn: space.organization, target: { kind: 'space', id: space.id } },
    filters,
    { limit: SPACE_LIST_MAX },
  );
}

/**
 * The integrations installed for a site, for those who can view it (sites says who: 404 for anyone else): its
 * organization's installations for all sites, and those installed on it.
 */
export async function loadSiteIntegrations(
  ctx: Ctx,
  organizationId: string,
  siteId: string,
  filters: IntegrationFilters = {},
): Promise<List<IIntegration>> {
  const site = await requireViewableSite(ctx, organizationId, siteId);
  return integrationRepository.list(
    ctx.em,
    { installedIn: organizationId, target: { kind: 'site', id: site.id } },
    filters,
    { limit: SPACE_LIST_MAX },
  );
}
