import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadVisibleSpacesByIds } from './space.loader.ts';
import { presentSpacesByIds } from './space.presenter.ts';

/** Operations other services call as a user (no HTTP binding: the gateway does not route them). */
export const spaceInternalProcedures = {
  /**
   * The spaces the caller can see among `spaceIds`, in the order asked (live or in the trash): one query for the spaces, one for the
   * collection tree of each organization they belong to, the same policy and presenter as `GET /v1/spaces/{id}`.
   */
  getSpacesByIds: implement(ops.getSpacesByIds, async ({ input, ctx }) =>
    presentSpacesByIds(ctx, await loadVisibleSpacesByIds(ctx, input.spaceIds)),
  ),
};
