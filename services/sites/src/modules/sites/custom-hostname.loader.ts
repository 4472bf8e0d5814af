import { membershipOf, notFound } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { SiteAction } from './site.policy.ts';
import { loadSiteFor, type LoadedSite } from './site.loader.ts';
import { siteRepository } from './site.repository.ts';

/**
 * The site of the caller's organizations that claims a custom hostname (the one serving it first), with `action`
 * asserted on it: 404 when no site the caller can see claims it (another organization's claim is not shown).
 */
export async function loadSiteClaiming(
  ctx: Pick<SitesContext, 'em' | 'actor'>,
  hostname: string,
  action: SiteAction,
  opts: { lock?: boolean } = {},
): Promise<LoadedSite> {
  const claims = await siteRepository.claiming(ctx.em, hostname);
  const own = claims.find((site) => membershipOf(ctx.actor, site.organizationId));
  if (!own) throw notFound('Custom hostname');
  return loadSiteFor(ctx, own.organizationId, own.id, action, opts);
}
