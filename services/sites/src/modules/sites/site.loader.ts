import { readerOf, type Actor, type List } from '@quire/contracts';
import { membershipOf, notFound, paginate, type AccessLevel, type PageRequest } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { Site, type ISite } from './site.entity.ts';
import { siteGrantRepository } from '../permissions/site-grant.repository.ts';
import { visibleSitesWhere } from '../permissions/site-visibility.ts';
import { organizationSitesPolicy, sitePolicy, type SiteAccessFacts, type SiteAction } from './site.policy.ts';
import { siteRepository } from './site.repository.ts';

type Ctx = Pick<SitesContext, 'em' | 'actor'>;

export interface LoadedSite {
  site: ISite;
  /** Its organization and role overrides (what the policy decided on). */
  facts: SiteAccessFacts;
  role: AccessLevel;
}

/** The policy of a part of a site (its insights, redirects, publishing auth): its own actions, decided on the site. */
interface SitePartPolicy<A extends string> {
  assert(actor: Actor, site: ISite, action: A): unknown;
}

/**
 * The site whose part the caller may `action` on under that part's policy: 404 when the caller cannot see the site,
 * 403 when its role there is too low.
 */
export async function loadSiteUnder<A extends string>(
  ctx: Ctx,
  where: { organizationId: string; siteId: string },
  policy: SitePartPolicy<A>,
  action: A,
): Promise<ISite> {
  const { site } = await loadSiteFor(ctx, where.organizationId, where.siteId, 'view');
  policy.assert(ctx.actor, site, action);
  return site;
}

/**
 * The site the caller may `action` on: 404 when it does not exist in the organization or the caller cannot
 * see it (another organization, a guest or a member whose override on the site is none), 403 when the role is too low. Changes of the structure also take
 * the site's row lock (`lock`), so they apply one at a time.
 */
export async function loadSiteFor(
  ctx: Ctx,
  organizationId: string,
  siteId: string,
  action: SiteAction,
  opts: { lock?: boolean } = {},
): Promise<LoadedSite> {
  if (!membershipOf(ctx.actor, organizationId) && readerOf(ctx.actor)?.organization !== organizationId)
    throw notFound('Site');
  const site = await siteRepository.findIn(ctx.em, organizationId, siteId);
  if (!site) throw notFound('Site');
  const facts: SiteAccessFacts = {
    organizationId: site.organizationId,
    siteId: site.id,
    grants: await siteGrantRepository.of(ctx.em, site.id),
  };
  const role = sitePolicy.assert(ctx.actor, facts, action);
  if (opts.lock) await siteRepository.lock(ctx.em, site.id);
  return { site, facts, role };
}

/** The caller may `action` on the sites of the organization (list them: any member; create one: `create`). */
export function assertSitesAction(
  ctx: Pick<SitesContext, 'actor'>,
  ids: { organizationId: string },
  action: keyof typeof organizationSitesPolicy.actions,
): void {
  organizationSitesPolicy.assert(ctx.actor, ids, action);
}

/** A page of the organization's sites the caller can see (`visibleSitesWhere`), newest first, filtered as asked. */
export async function loadVisibleSites(
  ctx: Ctx,
  input: PageRequest & Parameters<typeof siteRepository.listWhere>[2] & { organizationId: string },
): Promise<List<ISite>> {
  assertSitesAction(ctx, input, 'list');
  const where = await siteRepository.listWhere(ctx.em, input.organizationId, input);
  const visible = await visibleSitesWhere(ctx, input.organizationId);
  if (visible === null) return { count: 0, items: [] };
  return paginate(
    ctx.em,
    Site,
    { $and: [where, visible] } as typeof where,
    { createdAt: 'desc', id: 'desc' },
    input,
    (s) => s,
  );
}
