import { ops, type Space } from '@quire/contracts';
import { invalid, notFound } from '@quire/kit';
import type { IntegrationsContext } from '../../trpc.ts';

type Ctx = Pick<IntegrationsContext, 'peers' | 'actor' | 'requestId'>;

/**
 * The spaces as the caller sees them, by id, in one call to the content service made as the calling user (content
 * applies its own space policy: those the caller cannot view are absent). Integrations never reads content's tables.
 */
export async function fetchSpaces(ctx: Ctx, ids: Iterable<string>): Promise<Map<string, Space>> {
  const spaceIds = [...new Set(ids)];
  if (!spaceIds.length) return new Map();
  const { items } = await ctx.peers
    .get('content')
    .call(
      ops.getSpacesByIds,
      { spaceIds },
      { actorHeader: (await ctx.peers.sign(ctx.actor)).header, requestId: ctx.requestId },
    );
  return new Map(items.map((s) => [s.id, s]));
}

/** A live space the caller can view: 404 `Space not found` otherwise (a deleted one too). */
export async function requireViewableSpace(ctx: Ctx, spaceId: string): Promise<Space> {
  const space = (await fetchSpaces(ctx, [spaceId])).get(spaceId);
  if (!space || space.deletedAt) throw notFound('Space');
  return space;
}

/** A live space of `organizationId` the caller can view, for `field` of an input: 400 naming the field otherwise. */
export async function requireSpaceIn(ctx: Ctx, organizationId: string, spaceId: string, field: string): Promise<Space> {
  const space = (await fetchSpaces(ctx, [spaceId])).get(spaceId);
  if (!space || space.organization !== organizationId || space.deletedAt)
    throw invalid(`Invalid request: ${field}: no space ${spaceId} in this organization that you can view`);
  return space;
}
