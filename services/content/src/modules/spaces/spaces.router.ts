import { ops } from '@quire/contracts';
import { notFound, paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { createSpace } from '../../commands/space-creator.ts';
import { Space } from './space.entity.ts';
import { spaceRepository } from './space.repository.ts';
import { assertCanCreateSpace, assertCanViewSpace, spaceRole, visibleLevels } from './space.policy.ts';
import { presentSpace } from './space.presenter.ts';
import { membershipOf } from '@quire/kit';

export const spaceProcedures = {
  listSpaces: implement(ops.listSpaces, async ({ input, ctx }) => {
    if (!membershipOf(ctx.actor, input.organizationId)) throw notFound('Organization');
    const levels = visibleLevels(ctx.actor, input.organizationId);
    if (levels === 'none') return { count: 0, items: [] };
    const where = { organizationId: input.organizationId, deletedAt: null, ...(levels ? { defaultLevel: { $in: levels } } : {}) };
    return paginate(ctx.em, Space, where, { createdAt: 'asc', id: 'asc' }, input, (s) =>
      presentSpace(s, spaceRole(ctx.actor, s), ctx.config.QUIRE_PUBLIC_URL),
    );
  }),

  createSpace: implement(ops.createSpace, async ({ input, ctx }) => {
    assertCanCreateSpace(ctx.actor, input.organizationId);
    if (input.parent !== undefined) throw notFound('Collection');
    const space = await createSpace(ctx.em, input);
    return presentSpace(space, spaceRole(ctx.actor, space), ctx.config.QUIRE_PUBLIC_URL);
  }),

  getSpaceById: implement(ops.getSpaceById, async ({ input, ctx }) => {
    const space = await spaceRepository.findLiveById(ctx.em, input.spaceId);
    if (!space) throw notFound('Space');
    const role = assertCanViewSpace(ctx.actor, space);
    return presentSpace(space, role, ctx.config.QUIRE_PUBLIC_URL);
  }),

  countMemberSpaces: implement(ops.countMemberSpaces, async ({ input, ctx }) => {
    const counts: Record<string, number> = {};
    const byLevels = new Map<string, number>();
    for (const m of input.members) {
      const actor = { kind: 'user' as const, userId: m.userId, memberships: [{ organization: input.organizationId, role: m.role, teams: m.teams }] };
      const levels = visibleLevels(actor, input.organizationId);
      if (levels === 'none') {
        counts[m.userId] = 0;
        continue;
      }
      const key = levels ? levels.join(',') : '*';
      let n = byLevels.get(key);
      if (n === undefined) {
        n = await ctx.em.count(Space, { organizationId: input.organizationId, deletedAt: null, ...(levels ? { defaultLevel: { $in: levels } } : {}) });
        byLevels.set(key, n);
      }
      counts[m.userId] = n;
    }
    return { counts };
  }),
};
