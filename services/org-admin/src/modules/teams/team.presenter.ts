import type { Team as TeamDto, UserActor } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { Team, type ITeam } from './team.entity.ts';
import { teamPolicy } from './team.policy.ts';
import { loadTeamFacts, type TeamFacts } from './team.repository.ts';

/**
 * `spaces` counts the spaces the team has been given explicit access to. Quire has no space-permission
 * grants yet (neither users nor teams can be invited to a space), so it is truly 0 today.
 */
const SPACES_GRANTED = 0;

export function presentTeam(ctx: { actor: UserActor }, t: ITeam, facts: TeamFacts): TeamDto {
  return {
    object: 'team',
    id: t.id,
    title: t.title,
    members: facts.members.get(t.id) ?? 0,
    spaces: SPACES_GRANTED,
    createdAt: t.createdAt.toISOString(),
    permissions: teamPolicy.permissions(teamPolicy.role(ctx.actor, { organizationId: t.organizationId, callerRole: facts.callerRoles.get(t.id) ?? null })),
  };
}

/** Teams by id, as the caller sees them (their facts in one batch: three queries whatever the count). */
export async function presentTeams(ctx: { em: EntityManager; actor: UserActor }, ids: string[]): Promise<Map<string, TeamDto>> {
  const out = new Map<string, TeamDto>();
  if (!ids.length) return out;
  const facts = await loadTeamFacts(ctx.em, ids, ctx.actor.userId);
  for (const t of await ctx.em.find(Team, { id: { $in: ids } })) out.set(t.id, presentTeam(ctx, t, facts));
  return out;
}
