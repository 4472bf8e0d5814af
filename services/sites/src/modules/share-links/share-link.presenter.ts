import type { ShareLink as ShareLinkDto } from '@quire/contracts';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';
import { publishedUrl } from '../sites/site.presenter.ts';
import type { SiteTree, TreeSpace } from '../structure/site-tree.ts';
import { presentSiteSpace } from '../structure/structure.presenter.ts';
import type { IShareLink } from './share-link.entity.ts';
import { boxFor } from './share-link.resolver.ts';

/** A share link with its key in `urls.published` (while the site is published). */
export function presentShareLink(
  ctx: Pick<SitesContext, 'urls' | 'config'>,
  site: ISite,
  link: IShareLink,
  key = boxFor(ctx.config).open(link.keySealed),
): ShareLinkDto {
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

/** Where a share key opens a space: the published URL of the site space showing it (null: nowhere). */
export function presentShareLinkOpening(
  ctx: Parameters<typeof presentSiteSpace>[0],
  opened: { site: ISite; tree: SiteTree; siteSpace: TreeSpace; shareKey: string } | null,
): { publishedUrl: string | null } {
  if (!opened) return { publishedUrl: null };
  const { site, tree, siteSpace, shareKey } = opened;
  return {
    publishedUrl: presentSiteSpace(ctx, { site, tree, spaces: new Map(), shareKey }, siteSpace).urls.published ?? null,
  };
}
