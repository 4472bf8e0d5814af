import { MAX_PAGE_SIZE, ops, type Site } from '@quire/contracts';
import { DomainError, invalid } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';

type Ctx = Pick<IntegrationsContext, 'peers' | 'actor' | 'requestId'>;

/** The sites service, called as the calling user (it applies its own site policy). */
const asCaller = async (ctx: Ctx) => ({
  actorHeader: (await ctx.peers.sign(ctx.actor)).header,
  requestId: ctx.requestId,
});

/** A site of `organizationId` as the caller sees it (`getSiteById`: 404 `Site not found` when it cannot view it). */
export async function requireViewableSite(ctx: Ctx, organizationId: string, siteId: string): Promise<Site> {
  return ctx.peers.get('sites').call(ops.getSiteById, { organizationId, siteId }, await asCaller(ctx));
}

/** A site of `organizationId` the caller can view, for `field` of an input: 400 naming the field otherwise. */
export async function requireSiteIn(ctx: Ctx, organizationId: string, siteId: string, field: string): Promise<Site> {
  try {
    return await requireViewableSite(ctx, organizationId, siteId);
  } catch (err) {
    if (err instanceof DomainError && err.reason === 'not_found')
      throw invalid(`Invalid request: ${field}: no site ${siteId} in this organization that you can view`);
    throw err;
  }
}

/** The sites of `organizationId` the caller can view, by id, among `ids` (every page of `listSites`). */
export async function fetchSites(ctx: Ctx, organizationId: string, ids: Iterable<string>): Promise<Map<string, Site>> {
  const wanted = new Set(ids);
  const found = new Map<string, Site>();
  if (!wanted.size) return found;
  const caller = await asCaller(ctx);
  let page: string | undefined;
  do {
    const list = await ctx.peers
      .get('sites')
      .call(ops.listSites, { organizationId, limit: MAX_PAGE_SIZE, ...(page ? { page } : {}) }, caller);
    for (const site of list.items) if (wanted.has(site.id)) found.set(site.id, site);
    page = list.next?.page;
  } while (page && found.size < wanted.size);
  return found;
}
