import type { List } from '@quire/contracts';
import { paginate, type PageRequest } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import { containsPattern } from '../../db/like.ts';
import { findMembership } from '../members/member.repository.ts';
import { organizationPolicy } from '../organizations/organization.policy.ts';
import { Team, type ITeam } from './team.entity.ts';
import { teamPolicy } from './team.policy.ts';
import {
  findTeamOrThrow,
  loadTeamFacts,
  lockTeamForMembersOrThrow,
  teamIdsWithRole,
  type TeamFacts,
} from './team.repository.ts';

/** The team the caller may `action` on, with its facts for the caller: 404 unless it may see it, 403 when it may only see it. */
export async function loadTeamFor(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  ids: { organizationId: string; teamId: string },
  action: keyof typeof teamPolicy.actions,
): Promise<{ team: ITeam; facts: TeamFacts }> {
  organizationPolicy.assert(ctx.actor, ids, 'view');
  // Changing members in a mutation: the team is locked against a concurrent DELETE (see lockTeamForMembersOrThrow).
  const team =
    action === 'manageMembers' && ctx.em.isInTransaction()
      ? await lockTeamForMembersOrThrow(ctx.em, ids.organizationId, ids.teamId)
      : await findTeamOrThrow(ctx.em, ids.organizationId, ids.teamId);
  const facts = await loadTeamFacts(ctx.em, [team.id], ctx.actor.userId);
  teamPolicy.assert(
    ctx.actor,
    { organizationId: team.organizationId, callerRole: facts.callerRoles.get(team.id) ?? null },
    action,
  );
  return { team, facts };
}

/**
 * A page of the organization's teams for a caller who may list them (guests may not: 403): by title (text in it),
 * and, given an `owner`, only the teams that member can manage (all of them for an organization admin, else the
 * teams they own; none for someone who is not a member). With the teams' facts for the caller.
 */
export async function loadTeamsFor(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  input: PageRequest & { organizationId: string; title?: string | undefined; owner?: string | undefined },
): Promise<{ page: List<ITeam>; facts: TeamFacts }> {
  organizationPolicy.assert(ctx.actor, input, 'listTeams');
  const where: Record<string, unknown> = { organizationId: input.organizationId };
  if (input.title) where.title = { $ilike: containsPattern(input.title) };
  if (input.owner !== undefined) {
    const owner = await findMembership(ctx.em, input.organizationId, input.owner);
    if (!owner) where.id = { $in: [] };
    else if (owner.role !== 'admin')
      where.id = { $in: await teamIdsWithRole(ctx.em, input.organizationId, owner.userId, 'owner') };
  }
  const page = await paginate(ctx.em, Team, where, { createdAt: 'asc', id: 'asc' }, input, (t) => t);
  const facts = await loadTeamFacts(
    ctx.em,
    page.items.map((t) => t.id),
    ctx.actor.userId,
  );
  return { page, facts };
}
