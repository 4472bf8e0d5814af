import { ops } from '@quire/contracts';
import type { Space as SpaceDto } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import { spacePolicy } from './space.policy.ts';
import { presentSpacesIn } from './space.presenter.ts';
import { Space } from './space.entity.ts';

/** Operations other services call as a user (no HTTP binding: the gateway does not route them). */
export const spaceInternalProcedures = {
  /**
   * The spaces the caller can see among `spaceIds`, in the order asked (live or in the trash): one query for the spaces, one for the
   * collection tree of each organization they belong to, the same policy and presenter as `GET /v1/spaces/{id}`.
   */
  getSpacesByIds: implement(ops.getSpacesByIds, async ({ input, ctx }) => {
    const ids = [...new Set(input.spaceIds)];
    const spaces = ids.length ? await ctx.em.find(Space, { id: { $in: ids } }) : [];
    const byId = new Map<string, SpaceDto>();
    for (const organizationId of new Set(spaces.map((s) => s.organizationId))) {
      const tree = await collectionRepository.tree(ctx.em, organizationId);
      const present = presentSpacesIn(ctx, tree);
      for (const s of spaces) {
        if (s.organizationId !== organizationId || spacePolicy.role(ctx.actor, tree.factsOf(s)) === null) continue;
        byId.set(s.id, present(s));
      }
    }
    return { items: ids.flatMap((id) => byId.get(id) ?? []) };
  }),
};
