import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import {
  shareLinkCreator,
  shareLinkDeleter,
  shareLinkKeyRotator,
  shareLinkUpdater,
} from '../../commands/share-link-commands.ts';
import { loadSiteFor } from '../sites/site.loader.ts';
import { ShareLink } from './share-link.entity.ts';
import { loadShareLinkFor, loadShareLinkOpening } from './share-link.loader.ts';
import { presentShareLink, presentShareLinkOpening } from './share-link.presenter.ts';
import { boxFor } from './share-link.resolver.ts';

/** Share links show their secret keys: listing them is for the members who manage them (`create` role). */
export const shareLinkProcedures = {
  listSiteShareLinks: implement(ops.listSiteShareLinks, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'manageShareLinks');
    return paginate(ctx.em, ShareLink, { siteId: site.id }, { createdAt: 'desc', id: 'desc' }, input, (l) =>
      presentShareLink(ctx, site, l),
    );
  }),

  createSiteShareLink: implement(ops.createSiteShareLink, async ({ input, ctx }) => {
    const { site } = await loadSiteFor(ctx, input.organizationId, input.siteId, 'manageShareLinks');
    const { link, key } = shareLinkCreator(ctx.em, { site, name: input.name, box: boxFor(ctx.config) });
    return presentShareLink(ctx, site, link, key);
  }),

  updateSiteShareLinkById: implement(ops.updateSiteShareLinkById, async ({ input, ctx }) => {
    const { site, link } = await loadShareLinkFor(ctx, input);
    return presentShareLink(ctx, site, shareLinkUpdater(ctx.em, { link, name: input.name, active: input.active }));
  }),

  rotateSiteShareLinkKey: implement(ops.rotateSiteShareLinkKey, async ({ input, ctx }) => {
    const { site, link } = await loadShareLinkFor(ctx, input);
    const { key } = shareLinkKeyRotator(ctx.em, { link, box: boxFor(ctx.config) });
    return presentShareLink(ctx, site, link, key);
  }),

  deleteSiteShareLinkById: implement(ops.deleteSiteShareLinkById, async ({ input, ctx }) => {
    shareLinkDeleter(ctx.em, await loadShareLinkFor(ctx, input));
  }),

  /** content → sites: where a share key opens a space (the first site space showing it on the key's published `share-link` site). */
  resolveShareLink: implement(ops.resolveShareLink, async ({ input, ctx }) => {
    return presentShareLinkOpening(ctx, await loadShareLinkOpening(ctx, input));
  }),
};
