import { ops, type ShareLink as ShareLinkDto } from '@quire/contracts';
import { notFound, paginate } from '@quire/kit';
import { implement, type SitesContext } from '../../trpc.ts';
import { shareLinkCreator, shareLinkDeleter, shareLinkUpdater } from '../../commands/share-link-commands.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { publishedUrl } from '../sites/site.presenter.ts';
import { Site as SiteEntity, type ISite } from '../sites/site.entity.ts';
import { SiteTree } from '../structure/site-tree.ts';
import { presentSiteSpace } from '../structure/structure.presenter.ts';
import { ShareLink, type IShareLink } from './share-link.entity.ts';
import { shareLinkRepository } from './share-link.repository.ts';
import { boxFor } from './share-link.resolver.ts';

/** A share link with its key in `urls.published` (while the site is published). */
function presentShareLink(ctx: Pick<SitesContext, 'urls' | 'config'>, site: ISite, link: IShareLink, key = boxFor(ctx.config).open(link.keySealed)): ShareLinkDto {
  const url = publishedUrl(ctx.urls, site, [], key);
  return {
    object: 'share-link',
    id: link.id,
    createdAt: link.createdAt.toISOString(),
    ...(link.name != null ? { name: link.name } : {}),
    active: link.active,
    urls: url ? { published: url } : {},
  };
}

async function loadLink(ctx: SitesContext, input: { organizationId: string; siteId: string; shareLinkId: string }) {
  const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'manageShareLinks');
  const link = await shareLinkRepository.findIn(ctx.em, site.id, input.shareLinkId);
  if (!link) throw notFound('Share link');
  return { site, link };
}

/** Share links show their secret keys: listing them is for the members who manage them (`create` role). */
export const shareLinkProcedures = {
  listSiteShareLinks: implement(ops.listSiteShareLinks, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'manageShareLinks');
    return paginate(ctx.em, ShareLink, { siteId: site.id }, { createdAt: 'desc', id: 'desc' }, input, (l) => presentShareLink(ctx, site, l));
  }),

  createSiteShareLink: implement(ops.createSiteShareLink, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'manageShareLinks');
    const { link, key } = shareLinkCreator(ctx.em, { site, name: input.name, box: boxFor(ctx.config) });
    return presentShareLink(ctx, site, link, key);
  }),

  updateSiteShareLinkById: implement(ops.updateSiteShareLinkById, async ({ input, ctx }) => {
    const { site, link } = await loadLink(ctx, input);
    return presentShareLink(ctx, site, shareLinkUpdater(ctx.em, { link, name: input.name, active: input.active }));
  }),

  deleteSiteShareLinkById: implement(ops.deleteSiteShareLinkById, async ({ input, ctx }) => {
    shareLinkDeleter(ctx.em, await loadLink(ctx, input));
  }),

  /** content → sites: where a share key opens a space (the first site space showing it on the key's published `share-link` site). */
  resolveShareLink: implement(ops.resolveShareLink, async ({ input, ctx }) => {
    const [hit] = await shareLinkRepository.siteSpacesOpenedBy(ctx.em, boxFor(ctx.config).hash(input.shareKey), input.spaceId);
    const site = hit ? await ctx.em.findOne(SiteEntity, { id: hit.site_id }) : null;
    if (!hit || !site || !site.published || site.visibility !== 'share-link') return { publishedUrl: null };
    const tree = await SiteTree.load(ctx.em, site.id);
    const t = tree.shown.find((s) => s.entity.spaceId === input.spaceId);
    if (!t) return { publishedUrl: null };
    const url = presentSiteSpace(ctx, { site, tree, spaces: new Map(), shareKey: input.shareKey }, t).urls.published;
    return { publishedUrl: url ?? null };
  }),
};
