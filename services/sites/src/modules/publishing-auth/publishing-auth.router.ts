import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { publishingAuthKeyRegenerator, publishingAuthUpdater } from '../../commands/publishing-auth-commands.ts';
import { loadPublishingAuthFor, loadPublishingAuthToUpdate } from './publishing-auth.loader.ts';
import { presentPublishingAuth } from './publishing-auth.presenter.ts';

export const publishingAuthProcedures = {
  getSitePublishingAuthById: implement(ops.getSitePublishingAuthById, async ({ input, ctx }) => {
    const { auth } = await loadPublishingAuthFor(ctx, input, 'view');
    return presentPublishingAuth(ctx, auth);
  }),

  updateSitePublishingAuthById: implement(ops.updateSitePublishingAuthById, async ({ input, ctx }) => {
    const { auth } = await loadPublishingAuthToUpdate(ctx, input);
    return presentPublishingAuth(
      ctx,
      publishingAuthUpdater(ctx.em, {
        auth,
        backend: input.backend,
        fallbackURL: input.fallbackURL,
        logoutURL: input.logoutURL,
      }),
    );
  }),

  regenerateSitePublishingAuthById: implement(ops.regenerateSitePublishingAuthById, async ({ input, ctx }) => {
    const { auth } = await loadPublishingAuthFor(ctx, input, 'update');
    return presentPublishingAuth(ctx, publishingAuthKeyRegenerator(ctx.em, { auth, config: ctx.config }));
  }),
};
