import type { UserContext } from '../../trpc.ts';
import { organizationPolicy } from '../organizations/organization.policy.ts';
import type { ITeam } from './team.entity.ts';
import { teamPolicy } from './team.policy.ts';
import { findTeamOrThrow, loadTeamFacts, type TeamFacts } from './team.repository.ts';

/** The team the caller may `action` on, with its facts for the caller: 404 unless it may see it, 403 when it may only see it. */
export async function loadTeamFor(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  ids: { organizationId: string; teamId: string },
  action: keyof typeof teamPolicy.actions,
): Promise<{ team: ITeam; facts: TeamFacts }> {
  organizationPolicy.assert(ctx.actor, ids, 'view');
  const team = await findTeamOrThrow(ctx.em, ids.organizationId, ids.teamId);
  const facts = await loadTeamFacts(ctx.em, [team.id], ctx.actor.userId);
  teamPolicy.assert(ctx.actor, { organizationId: team.organizationId, callerRole: facts.callerRoles.get(team.id) ?? null }, action);
  return { team, facts };
}
