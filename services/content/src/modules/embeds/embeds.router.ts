import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadEmbed } from './embeds.loader.ts';
import { presentEmbed } from './embeds.presenter.ts';

/** What embed blocks show: a URL's oEmbed HTML or a link card. */
export const embedProcedures = {
  getEmbedByUrl: implement(ops.getEmbedByUrl, async ({ input, ctx }) => presentEmbed(await loadEmbed(ctx, input))),
  getEmbedByUrlInSpace: implement(ops.getEmbedByUrlInSpace, async ({ input, ctx }) =>
    presentEmbed(await loadEmbed(ctx, input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
