import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { changeRequestCreator, changeRequestUpdater } from '../../commands/change-request-writer.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { ChangeRequest } from './change-request.entity.ts';
import { loadChangeRequestFor } from './change-request.loader.ts';
import { presentChangeRequest, presentChangeRequests } from './change-request.presenter.ts';
import { changeRequestRepository } from './change-request.repository.ts';

export const changeRequestProcedures = {
  listChangeRequestsForSpace: implement(ops.listChangeRequestsForSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'view');
    const contributed = input.contributor ? await changeRequestRepository.contributedBy(ctx.em, space.id, input.contributor) : undefined;
    const page = await paginate(ctx.em, ChangeRequest, changeRequestRepository.listWhere(space.id, input.status, contributed), { createdAt: 'desc', id: 'desc' }, input, (cr) => cr);
    return { ...page, items: await presentChangeRequests(ctx, space, page.items) };
  }),

  createChangeRequest: implement(ops.createChangeRequest, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'edit');
    return presentChangeRequest(ctx, space, await changeRequestCreator(ctx.em, { ...input, space, createdBy: ctx.actor.userId }));
  }),

  getChangeRequestById: implement(ops.getChangeRequestById, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'view');
    return presentChangeRequest(ctx, space, changeRequest);
  }),

  updateChangeRequestById: implement(ops.updateChangeRequestById, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
    return presentChangeRequest(ctx, space, await changeRequestUpdater(ctx.em, { ...input, space, changeRequest }));
  }),
};
