import type { Actor, List, Site as SiteDto } from '@quire/contracts';
import type { EntityManager, PublicUrls } from '@quire/kit';
import { siteGrantRepository } from '../permissions/site-grant.repository.ts';
import { servedHostname, type ISite } from './site.entity.ts';
import { sitePolicy, type SiteGrantFact } from './site.policy.ts';
import { siteRepository } from './site.repository.ts';

export interface PresentContext {
  actor: Actor;
  urls: PublicUrls;
}

/** Where the instance serves a site: `{QUIRE_PUBLIC_URL}/sites/{basename}`. */
export const instanceSiteUrl = (urls: PublicUrls, site: Pick<ISite, 'basename'>) =>
  urls.page(`/sites/${encodeURIComponent(site.basename)}`);

/**
 * The published URL of a site, or of a section or site space in it (`segments`): on the custom hostname when
 * the site has a verified one, else on the instance; with `?share=<key>` when a share key opened it. Undefined while the
 * site is not published.
 */
export function publishedUrl(
  urls: PublicUrls,
  site: ISite,
  segments: string[] = [],
  shareKey: string | null = null,
): string | undefined {
  if (!site.published) return undefined;
  const base = servedHostname(site) ? `https://${servedHostname(site)}` : instanceSiteUrl(urls, site);
  const url = base + segments.map((s) => `/${encodeURIComponent(s)}`).join('');
  return shareKey ? `${url}?share=${encodeURIComponent(shareKey)}` : url;
}

/** The features a site uses, from its settings (all on the site's own plan; none is frozen). */
function featuresOf(site: ISite): SiteDto['features'] {
  const ids = [
    site.adaptiveEnabled && 'sites-adaptive-content',
    site.visibility === 'share-link' && 'sites-share-links',
    site.visibility === 'visitor-auth' && 'sites-visitor-authentication',
    servedHostname(site) && 'sites-custom-domain',
    site.proxyOrigin && 'sites-custom-subdirectory',
  ].filter((f): f is string => typeof f === 'string');
  return ids.map((id) => ({ id, plan: site.type, frozen: false }));
}

/** A site as the caller sees it: `permissions` from the caller's role, `siteSpaces` the count of its visible site spaces. */
export function presentSite(
  ctx: PresentContext,
  site: ISite,
  siteSpaces: number,
  grants: readonly SiteGrantFact[],
  shareKey: string | null = null,
): SiteDto {
  const published = publishedUrl(ctx.urls, site, [], shareKey);
  return {
    object: 'site',
    id: site.id,
    type: site.type,
    title: site.title,
    ...(site.hostname ? { hostname: site.hostname } : {}),
    basename: site.basename,
    ...(site.proxyOrigin ? { proxy: { origin: site.proxyOrigin, target: instanceSiteUrl(ctx.urls, site) } } : {}),
    visibility: site.visibility,
    published: site.published,
    siteSpaces,
    createdAt: site.createdAt.toISOString(),
    adaptiveContent: { enabled: site.adaptiveEnabled },
    agentsContext: site.agentsContext,
    features: featuresOf(site),
    permissions: sitePolicy.permissions(sitePolicy.role(ctx.actor, { organizationId: site.organizationId, grants })),
    urls: {
      location: ctx.urls.api(`/orgs/${site.organizationId}/sites/${site.id}`),
      app: ctx.urls.page(`/o/${site.organizationId}/sites/${site.id}`),
      ...(published ? { published } : {}),
    },
  };
}

/** A site with its count of site spaces and its role overrides (two queries). */
export async function presentSiteWithCounts(
  ctx: PresentContext & { em: EntityManager },
  site: ISite,
): Promise<SiteDto> {
  const counts = await siteRepository.siteSpaceCounts(ctx.em, [site.id]);
  return presentSite(ctx, site, counts.get(site.id) ?? 0, await siteGrantRepository.of(ctx.em, site.id));
}

/** A page of sites, each with its count of site spaces and its role overrides (two queries for the page). */
export async function presentSites(
  ctx: PresentContext & { em: EntityManager },
  page: List<ISite>,
): Promise<List<SiteDto>> {
  const ids = page.items.map((s) => s.id);
  const counts = await siteRepository.siteSpaceCounts(ctx.em, ids);
  const grants = await siteGrantRepository.ofSites(ctx.em, ids);
  return { ...page, items: page.items.map((s) => presentSite(ctx, s, counts.get(s.id) ?? 0, grants.get(s.id) ?? [])) };
}
