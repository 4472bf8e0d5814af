import type { SiteRedirectDestination, SiteRedirectInputDestination } from '@quire/contracts';
import { invalid, notFound } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { resolveShareKey } from '../share-links/share-link.resolver.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { pagePathAsCaller, resolveDestination } from './redirect-destination.ts';
import { destinationTarget, siteBaseUrl, withCapturedRest } from './redirect-target.ts';
import { loadSiteUnder } from '../sites/site.loader.ts';
import type { ISite } from '../sites/site.entity.ts';
import type { ISiteRedirect } from './redirect.entity.ts';
import { redirectPolicy, type RedirectAction } from './redirect.policy.ts';
import { MAX_REDIRECTS_PER_SITE, redirectRepository } from './redirect.repository.ts';

type Ctx = Pick<SitesContext, 'em' | 'actor'>;
interface Where {
  organizationId: string;
  siteId: string;
}

/**
 * The site whose redirects the caller may `action` on: 404 when it cannot see the site, 403 when its role is
 * too low.
 */
export const loadSiteForRedirects = (ctx: Ctx, where: Where, action: RedirectAction): Promise<ISite> =>
  loadSiteUnder(ctx, where, redirectPolicy, action);

/** A redirect of that site (404 when the site has none with this id). */
export async function loadRedirectFor(
  ctx: Ctx,
  where: Where & { siteRedirectId: string },
  action: RedirectAction,
): Promise<{ site: ISite; redirect: ISiteRedirect }> {
  const site = await loadSiteForRedirects(ctx, where, action);
  const redirect = await redirectRepository.findIn(ctx.em, site.id, where.siteRedirectId);
  if (!redirect) throw notFound('Site redirect');
  return { site, redirect };
}

/** How many redirects a bulk upsert may add: its items that are neither a publication nor a deletion. */
export const redirectsAddedBy = (items: { intent: string; destination?: unknown }[]) =>
  items.filter((r) => r.intent !== 'publish' && r.destination !== null).length;

/** The site whose redirects the caller manages, with room for `adding` more (400 past `MAX_REDIRECTS_PER_SITE`). */
export async function loadSiteWithRoomFor(ctx: Ctx, where: Where, adding: number): Promise<ISite> {
  const site = await loadSiteForRedirects(ctx, where, 'manage');
  if ((await redirectRepository.count(ctx.em, site.id)) + adding > MAX_REDIRECTS_PER_SITE)
    throw invalid(`Invalid request: source: a site holds at most ${MAX_REDIRECTS_PER_SITE} redirects (live and draft)`);
  return site;
}

/** The destination to store for one given (undefined when none is given): see `resolveDestination`. */
export async function loadDestination(
  ctx: SitesContext,
  siteId: string,
  destination: SiteRedirectInputDestination | undefined,
): Promise<SiteRedirectDestination | undefined> {
  if (!destination) return undefined;
  return resolveDestination(ctx, await SiteTree.load(ctx.em, siteId), destination);
}

/**
 * The live redirect a path follows on a site the caller may view, and its target as an absolute URL (404 when no
 * redirect matches, or its destination names nothing any more).
 */
export async function loadRedirectTarget(
  ctx: SitesContext,
  input: Where & { source: string; shareKey?: string | undefined },
): Promise<{ redirect: ISiteRedirect; target: string }> {
  const site = await loadSiteForRedirects(ctx, input, 'view');
  const match = await redirectRepository.matchLive(ctx.em, site.id, input.source);
  if (!match) throw notFound('Site redirect');
  const target = await destinationTarget(
    await SiteTree.load(ctx.em, site.id),
    match.redirect.destination,
    pagePathAsCaller(ctx),
  );
  if (target === null) throw notFound('Site redirect destination');
  const captured = match.redirect.captureWildcard ? withCapturedRest(target, match.rest) : target;
  const url = /^https?:\/\//.test(captured)
    ? captured
    : siteBaseUrl(ctx.urls, site, await resolveShareKey(ctx, site, input.shareKey), captured);
  return { redirect: match.redirect, target: url };
}
