import { DomainError } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';
import { siteGrantRepository, type PrincipalKind } from './site-grant.repository.ts';

/**
 * A principal's role override on a site, which `update…PermissionInSite` changes: 404 when it has none. Returns the
 * principal as the permission writer names it (`users` or `teams`).
 */
export async function loadSiteOverride(
  ctx: Pick<SitesContext, 'em'>,
  site: ISite,
  principal: { kind: PrincipalKind; id: string },
): Promise<{ users: string[] } | { teams: string[] }> {
  if (!(await siteGrantRepository.roleOf(ctx.em, site.id, principal)))
    throw new DomainError('not_found', `The ${principal.kind} has no role override on the site`);
  return principal.kind === 'user' ? { users: [principal.id] } : { teams: [principal.id] };
}
