import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadUserFor } from './user.loader.ts';
import { presentUser, presentUserAs } from './user.presenter.ts';
import { userRepository } from './user.repository.ts';

export const userProcedures = {
  getAuthenticatedUser: implement(ops.getAuthenticatedUser, async ({ ctx }) =>
    presentUser(ctx, await userRepository.findOrThrow(ctx.em, ctx.actor.userId)),
  ),

  getUserById: implement(ops.getUserById, async ({ input, ctx }) => {
    const { user, shows } = await loadUserFor(ctx, input.userId);
    return presentUserAs(ctx, user, shows);
  }),

  getUsersByIds: implement(ops.getUsersByIds, async ({ input, ctx }) => ({
    items: (await userRepository.findByIds(ctx.em, input.ids)).map((u) => presentUser(ctx, u)),
  })),
};
