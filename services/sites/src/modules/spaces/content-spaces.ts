import { ops, type Space } from '@quire/contracts';
import { invalid } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';

type Ctx = Pick<SitesContext, 'peers' | 'actor' | 'requestId'>;

/** The content service, called as the calling user (it applies its own space policy). */
const asCaller = async (ctx: Ctx) => ({
  actorHeader: (await ctx.peers.sign(ctx.actor)).header,
  requestId: ctx.requestId,
});

/** The spaces as the caller sees them, by id, in one call to the content service (those it cannot see are absent). */
export async function fetchSpaces(ctx: Ctx, ids: Iterable<string>): Promise<Map<string, Space>> {
  const spaceIds = [...new Set(ids)];
  if (!spaceIds.length) return new Map();
  const { items } = await ctx.peers.get('content').call(ops.getSpacesByIds, { spaceIds }, await asCaller(ctx));
  return new Map(items.map((s) => [s.id, s]));
}

/**
 * The spaces to put on a site of `organizationId`: each must be a live space of that organization the caller
 * can read (400 naming `field` otherwise). One call for all of them; returned in the order given.
 */
export async function requireSpaces(ctx: Ctx, organizationId: string, ids: string[], field: string): Promise<Space[]> {
  const found = await fetchSpaces(ctx, ids);
  return ids.map((id) => {
    const space = found.get(id);
    if (!space || space.organization !== organizationId)
      throw invalid(`${field}: no space ${id} in this organization that you can read`);
    if (space.deletedAt) throw invalid(`${field}: space ${id} is deleted (restore it first)`);
    return space;
  });
}

/** A new space in the organization, created by the content service as the calling user (its own checks apply). */
export async function createSpaceFor(ctx: Ctx, organizationId: string, title: string): Promise<Space> {
  return ctx.peers
    .get('content')
    .call(ops.createSpace, { organizationId, title: title.slice(0, 50) }, await asCaller(ctx));
}

/** The spaces a new site starts with: a new space (`'new'`, titled like the site), or the spaces given. */
export const spacesForNewSite = (
  ctx: Ctx,
  organizationId: string,
  title: string,
  spaces: 'new' | string[] | undefined,
): Promise<Space[]> =>
  spaces === 'new'
    ? createSpaceFor(ctx, organizationId, title).then((space) => [space])
    : requireSpaces(ctx, organizationId, spaces ?? [], 'spaces');

/** The space given to a change (see `requireSpaces`), or undefined when none is given. */
export const requireSpaceIfGiven = async (
  ctx: Ctx,
  organizationId: string,
  id: string | undefined,
  field: string,
): Promise<Space | undefined> =>
  id === undefined ? undefined : (await requireSpaces(ctx, organizationId, [id], field))[0];
