import { notFound } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import { Site, type ISite } from '../sites/site.entity.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { SiteTree, type TreeSpace } from '../structure/site-tree.ts';
import type { IShareLink } from './share-link.entity.ts';
import { shareLinkRepository } from './share-link.repository.ts';
import { boxFor } from './share-link.resolver.ts';

/** A share link of a site whose share links the caller manages (404 when the site has none with this id). */
export async function loadShareLinkFor(
  ctx: Pick<SitesContext, 'em' | 'actor'>,
  input: { organizationId: string; siteId: string; shareLinkId: string },
): Promise<{ site: ISite; link: IShareLink }> {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'manageShareLinks');
  const link = await shareLinkRepository.findIn(ctx.em, site.id, input.shareLinkId);
  if (!link) throw notFound('Share link');
  return { site, link };
}

/**
 * The site space a share key opens a space on: the first one showing the space on the key's published `share-link`
 * site (null when the key opens nothing, or the space is not shown there).
 */
export async function loadShareLinkOpening(
  ctx: Pick<SitesContext, 'em' | 'config'>,
  input: { shareKey: string; spaceId: string },
): Promise<{ site: ISite; tree: SiteTree; siteSpace: TreeSpace; shareKey: string } | null> {
  const siteId = await shareLinkRepository.siteOpenedBy(ctx.em, boxFor(ctx.config).hash(input.shareKey), input.spaceId);
  const site = siteId ? await ctx.em.findOne(Site, { id: siteId }) : null;
  if (!site?.published || site.visibility !== 'share-link') return null;
  const tree = await SiteTree.load(ctx.em, site.id);
  const siteSpace = tree.shown.find((s) => s.entity.spaceId === input.spaceId);
  return siteSpace ? { site, tree, siteSpace, shareKey: input.shareKey } : null;
}
