import type { AccessLevel } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from './site.entity.ts';
import { sitePolicy, type SiteAction } from './site.policy.ts';
import { siteRepository } from './site.repository.ts';
import { notFound } from '@quire/kit';

type Ctx = Pick<SitesContext, 'em' | 'actor'>;

export interface LoadedSite {
  site: ISite;
  role: AccessLevel;
}

/**
 * The site the caller may `action` on: 404 when it does not exist in the organization or the caller cannot
 * see it (another organization, a guest), 403 when the role is too low. Changes of the structure also take
 * the site's row lock (`lock`), so they apply one at a time.
 */
export async function loadSiteFor(ctx: Ctx, organizationId: string, siteId: string, action: SiteAction, opts: { lock?: boolean } = {}): Promise<LoadedSite> {
  const role = sitePolicy.assert(ctx.actor, { organizationId }, 'view');
  const site = await siteRepository.findIn(ctx.em, organizationId, siteId);
  if (!site) throw notFound('Site');
  sitePolicy.assert(ctx.actor, site, action);
  if (opts.lock) await siteRepository.lock(ctx.em, site.id);
  return { site, role };
}
