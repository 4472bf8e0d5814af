import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadMetaLinksPage } from './meta-links.loader.ts';
import { presentMetaLinks } from './meta-links.presenter.ts';

/** A page's meta links (GitBook's canonical and alternates) in the live revision, a change request, a revision. */
export const pageMetaLinksProcedures = {
  listSpacePageMetaLinks: implement(ops.listSpacePageMetaLinks, async ({ input, ctx }) =>
    presentMetaLinks(await loadMetaLinksPage(ctx, input)),
  ),
  listChangeRequestPageMetaLinks: implement(ops.listChangeRequestPageMetaLinks, async ({ input, ctx }) =>
    presentMetaLinks(await loadMetaLinksPage(ctx, input)),
  ),
  listRevisionPageMetaLinks: implement(ops.listRevisionPageMetaLinks, async ({ input, ctx }) =>
    presentMetaLinks(await loadMetaLinksPage(ctx, input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
