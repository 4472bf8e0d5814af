import { ops } from '@quire/contracts';
import { notFound } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { User } from './user.entity.ts';
import { presentUser } from './user.presenter.ts';

export const userProcedures = {
  getAuthenticatedUser: implement(ops.getAuthenticatedUser, async ({ ctx }) => {
    const user = await ctx.em.findOne(User, { id: ctx.actor.userId });
    if (!user) throw notFound('User');
    return presentUser(ctx, user);
  }),

  getUsersByIds: implement(ops.getUsersByIds, async ({ input, ctx }) => {
    const users = input.ids.length ? await ctx.em.find(User, { id: { $in: [...new Set(input.ids)] } }) : [];
    return { items: users.map((u) => presentUser(ctx, u)) };
  }),
};
