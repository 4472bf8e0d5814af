import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { changeRequestCreator, changeRequestUpdater } from '../../commands/change-request-writer.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { loadChangeRequestFor, loadChangeRequests } from './change-request.loader.ts';
import {
  presentChangeRequest,
  presentChangeRequests,
  presentChangeRequestWithRules,
} from './change-request.presenter.ts';

export const changeRequestProcedures = {
  listChangeRequestsForSpace: implement(ops.listChangeRequestsForSpace, async ({ input, ctx }) => {
    const { space, page } = await loadChangeRequests(ctx, input);
    return { ...page, items: await presentChangeRequests(ctx, space, page.items) };
  }),

  createChangeRequest: implement(ops.createChangeRequest, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'edit');
    return presentChangeRequest(
      ctx,
      space,
      await changeRequestCreator(ctx.em, { ...input, space, createdBy: ctx.actor.userId }),
    );
  }),

  getChangeRequestById: implement(ops.getChangeRequestById, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'view');
    return presentChangeRequestWithRules(ctx, space, changeRequest);
  }),

  updateChangeRequestById: implement(ops.updateChangeRequestById, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
    return presentChangeRequest(ctx, space, await changeRequestUpdater(ctx.em, { ...input, space, changeRequest }));
  }),
};
