import { ops, type SiteRedirectDestination, type SiteRedirectInputDestination } from '@quire/contracts';
import { DomainError, invalid } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { SiteTree } from '../structure/site-tree.ts';
import type { PagePathOf } from './redirect-target.ts';

type Ctx = Pick<SitesContext, 'peers' | 'actor' | 'requestId'>;

const asCaller = async (ctx: Ctx) => ({
  actorHeader: (await ctx.peers.sign(ctx.actor)).header,
  requestId: ctx.requestId,
});
const isNotFound = (err: unknown) =>
  err instanceof DomainError && (err.reason === 'not_found' || err.reason === 'forbidden');

/**
 * The live path of a page, read from the content service as the caller (null when it cannot see it, it is
 * gone or a link).
 */
export function pagePathAsCaller(ctx: Ctx): PagePathOf {
  return async (spaceId, pageId) => {
    try {
      const page = await ctx.peers.get('content').call(ops.getPageById, { spaceId, pageId }, await asCaller(ctx));
      return 'path' in page ? page.path : null;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };
}

/**
 * The destination to store for what the caller gave, checked against the site: a section or site space of this
 * site, a page of the space of one of its site spaces (read as the caller), or an http(s) URL. A `path`
 * destination becomes the page at that path in the first site space showing the space. Throws a 400 naming
 * `field` (e.g. `destination.siteSpaceId`) when it names nothing on the site.
 */
export async function resolveDestination(
  ctx: Ctx,
  tree: SiteTree,
  d: SiteRedirectInputDestination,
  field = 'destination',
): Promise<SiteRedirectDestination> {
  const siteSpace = (id: string, name: string) => {
    const t = tree.siteSpace(id);
    if (!t) throw invalid(`Invalid request: ${field}.${name}: no site space ${id} on this site`);
    return t.entity;
  };
  switch (d.kind) {
    case 'external':
      return d;
    case 'site-section':
      if (!tree.section(d.siteSectionId))
        throw invalid(`Invalid request: ${field}.siteSectionId: no section ${d.siteSectionId} on this site`);
      return d;
    case 'site-space':
      siteSpace(d.siteSpaceId, 'siteSpaceId');
      return d;
    case 'site-page': {
      const s = siteSpace(d.siteSpaceId, 'siteSpaceId');
      if ((await pagePathAsCaller(ctx)(s.spaceId, d.pageId)) === null) {
        throw invalid(`Invalid request: ${field}.pageId: no page ${d.pageId} in the space of site space ${s.id}`);
      }
      return d;
    }
    case 'path':
      return pageAtPath(ctx, tree, d, field);
  }
}

async function pageAtPath(
  ctx: Ctx,
  tree: SiteTree,
  d: { spaceId: string; path: string },
  field: string,
): Promise<SiteRedirectDestination> {
  const t = tree.spaces.find((s) => s.entity.spaceId === d.spaceId);
  if (!t) throw invalid(`Invalid request: ${field}.spaceId: space ${d.spaceId} is not on this site`);
  const pagePath = d.path.replace(/^\/+|\/+$/g, '');
  try {
    const page = await ctx.peers
      .get('content')
      .call(ops.getPageByPath, { spaceId: d.spaceId, pagePath }, await asCaller(ctx));
    return { kind: 'site-page', siteSpaceId: t.entity.id, pageId: page.id };
  } catch (err) {
    if (isNotFound(err) || (err instanceof DomainError && err.reason === 'invalid_input')) {
      throw invalid(`Invalid request: ${field}.path: no page at ${d.path} in space ${d.spaceId}`);
    }
    throw err;
  }
}
