import type { Embed } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { embedOf } from './embed-metadata.ts';

/**
 * The embed of a URL (see `embedOf`: read through the kit's guarded fetch, kept a day). With a space, only for those
 * who can read it (a reader: a space its site shows it); 404 otherwise.
 */
export async function loadEmbed(
  ctx: Pick<ContentContext, 'em' | 'actor' | 'config'>,
  input: { url: string; spaceId?: string },
): Promise<Embed> {
  if (input.spaceId !== undefined) await loadSpaceFor(ctx, input.spaceId, 'view');
  return embedOf(ctx.config, input.url);
}
