import { ops, type Actor, type Team as TeamDto, type UserActor } from '@quire/contracts';
import type { EntityManager, ServiceClients } from '@quire/kit';
import { Team, type ITeam } from './team.entity.ts';
import { teamPolicy } from './team.policy.ts';
import { loadTeamFacts, type TeamFacts } from './team.repository.ts';

/** What presenting teams needs: the caller, the database, and the content service (which holds the grants). */
export interface TeamPresentContext {
  em: EntityManager;
  actor: UserActor;
  peers: ServiceClients;
  requestId: string;
}

/** Spaces each team has access to through its grants, by team id: one call to the content service per organization. */
export async function loadTeamSpaces(
  ctx: Pick<TeamPresentContext, 'peers' | 'requestId'>,
  teams: readonly ITeam[],
): Promise<Record<string, number>> {
  const byOrganization = new Map<string, string[]>();
  for (const t of teams) byOrganization.set(t.organizationId, [...(byOrganization.get(t.organizationId) ?? []), t.id]);
  const answers = await Promise.all(
    [...byOrganization].map(([organizationId, ids]) =>
      ctx.peers.asService(ops.countTeamSpaces, { organizationId, teams: ids }, ctx.requestId),
    ),
  );
  return Object.assign({}, ...answers.map((a) => a.counts));
}

/**
 * A team as the caller sees it. `spaces` counts the live spaces the team was given a role on, directly or through a
 * collection they inherit from (`countTeamSpaces`, from the content service).
 */
export function presentTeam(
  ctx: { actor: UserActor },
  t: ITeam,
  facts: TeamFacts,
  spaces: Readonly<Record<string, number>>,
): TeamDto {
  const count = spaces[t.id];
  if (count === undefined) throw new Error(`team ${t.id} presented without its spaces count`);
  return {
    object: 'team',
    id: t.id,
    title: t.title,
    members: facts.members.get(t.id) ?? 0,
    spaces: count,
    createdAt: t.createdAt.toISOString(),
    permissions: teamPolicy.permissions(
      teamPolicy.role(ctx.actor, { organizationId: t.organizationId, callerRole: facts.callerRoles.get(t.id) ?? null }),
    ),
  };
}

/**
 * Teams as the caller sees them, in the order given: their facts (two queries, unless given) and their space counts
 * (one call to the content service, at the same time). A content service that cannot be reached fails the call
 * (503) rather than showing a made-up count.
 */
export async function presentTeamList(
  ctx: TeamPresentContext,
  teams: readonly ITeam[],
  facts?: TeamFacts,
): Promise<TeamDto[]> {
  if (!teams.length) return [];
  const [f, spaces] = await Promise.all([
    facts ??
      loadTeamFacts(
        ctx.em,
        teams.map((t) => t.id),
        ctx.actor.userId,
      ),
    loadTeamSpaces(ctx, teams),
  ]);
  return teams.map((t) => presentTeam(ctx, t, f, spaces));
}

/** Teams by id, as the caller sees them; with `organizationId`, only the ids that are teams of that organization. */
export async function presentTeams(
  ctx: TeamPresentContext,
  ids: string[],
  organizationId?: string,
): Promise<Map<string, TeamDto>> {
  if (!ids.length) return new Map();
  const where = organizationId ? { id: { $in: ids }, organizationId } : { id: { $in: ids } };
  const teams = await ctx.em.find(Team, where);
  return new Map((await presentTeamList(ctx, teams)).map((t) => [t.id, t]));
}

/**
 * The presenters of items that may name a default team (an identity provider's), with that team as the caller sees
 * it: `many` (one batch of teams for all the items) and `one`.
 */
export function withDefaultTeam<T extends { defaultTeamId?: string | null }, C extends TeamPresentContext, R>(
  present: (ctx: C, item: T, defaultTeam: TeamDto | undefined) => R,
) {
  const many = async (ctx: C, items: T[]): Promise<R[]> => {
    const teams = await presentTeams(ctx, [
      ...new Set(items.flatMap((i) => (i.defaultTeamId ? [i.defaultTeamId] : []))),
    ]);
    return items.map((i) => present(ctx, i, i.defaultTeamId ? teams.get(i.defaultTeamId) : undefined));
  };
  return { many, one: async (ctx: C, item: T): Promise<R> => (await many(ctx, [item]))[0]! };
}

/** The teams among `ids`, in that order, as `viewer` sees them (none for a viewer that is not a user). */
export async function presentTeamsByIds(
  ctx: Omit<TeamPresentContext, 'actor'>,
  viewer: Actor,
  ids: string[],
  organizationId: string,
): Promise<{ items: TeamDto[] }> {
  if (viewer.kind !== 'user') return { items: [] };
  const teams = await presentTeams({ ...ctx, actor: viewer }, ids, organizationId);
  return { items: ids.flatMap((id) => teams.get(id) ?? []) };
}
