import { Events, ops } from '@quire/contracts';
import { invalid, newId, notFound, paginate, recordEvent } from '@quire/kit';
import { implement, type UserContext } from '../../trpc.ts';
import { removeTeamMember, setTeamMember, updateTeamMembers } from '../../commands/team-member-updater.ts';
import { containsPattern } from '../../db/like.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { assertCanListTeams, requireMembership } from '../organizations/organization.policy.ts';
import { presentMembers } from '../members/member.presenter.ts';
import { findMemberOrThrow, resolveMemberRefs } from '../members/member.repository.ts';
import { Team, TeamMember } from './team.entity.ts';
import { assertCanManageTeamMembers, assertCanManageTeams, assertCanViewTeam, managesTeam, type TeamAccessFacts } from './team.policy.ts';
import { presentTeam } from './team.presenter.ts';
import { findTeamOrThrow, loadTeamFacts, teamIdsWithRole } from './team.repository.ts';

export const teamProcedures = {
  listTeamsInOrganizationById: implement(ops.listTeamsInOrganizationById, async ({ input, ctx }) => {
    assertCanListTeams(ctx.actor, input.organizationId);
    const where: Record<string, unknown> = { organizationId: input.organizationId };
    if (input.title) where.title = { $ilike: containsPattern(input.title) };
    if (input.owner !== undefined) {
      const owner = await ctx.em.findOne(Membership, { organizationId: input.organizationId, userId: input.owner });
      // Only the teams the member can manage: all of them when they manage teams they are not in (admins), else the teams they own.
      if (!owner) where.id = { $in: [] };
      else if (!managesTeam(owner.role ?? null, null)) where.id = { $in: await teamIdsWithRole(ctx.em, input.organizationId, owner.userId, 'owner') };
    }
    const page = await paginate(ctx.em, Team, where, { createdAt: 'asc', id: 'asc' }, input, (t) => t);
    const facts = await loadTeamFacts(ctx.em, page.items.map((t) => t.id), ctx.actor.userId);
    return { ...page, items: page.items.map((t) => presentTeam(t, facts, ctx.actor)) };
  }),

  createOrganizationTeam: implement(ops.createOrganizationTeam, async ({ input, ctx }) => {
    assertCanManageTeams(ctx.actor, input.organizationId);
    const members = input.members ?? [];
    const found = await resolveMemberRefs(ctx.em, input.organizationId, members);
    const missing = members.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid(`Invalid request: members: ${JSON.stringify(missing)} is not a member of the organization`);
    const team = ctx.em.create(Team, { id: newId(), organizationId: input.organizationId, title: input.title, createdAt: new Date() });
    recordEvent(ctx.em, Events.teamCreated, { organization: team.organizationId, team: team.id, title: team.title });
    for (const userId of new Set(members)) setTeamMember(ctx.em, team, userId, 'member', null);
    await ctx.em.flush();
    return presentTeam(team, await loadTeamFacts(ctx.em, [team.id], ctx.actor.userId), ctx.actor);
  }),

  getTeamInOrganizationById: implement(ops.getTeamInOrganizationById, async ({ input, ctx }) => {
    const { team, facts } = await teamFor(ctx, input, assertCanViewTeam);
    return presentTeam(team, facts, ctx.actor);
  }),

  updateTeamInOrganizationById: implement(ops.updateTeamInOrganizationById, async ({ input, ctx }) => {
    assertCanManageTeams(ctx.actor, input.organizationId);
    const team = await findTeamOrThrow(ctx.em, input.organizationId, input.teamId);
    team.title = input.title;
    await ctx.em.flush();
    return presentTeam(team, await loadTeamFacts(ctx.em, [team.id], ctx.actor.userId), ctx.actor);
  }),

  removeTeamFromOrganizationById: implement(ops.removeTeamFromOrganizationById, async ({ input, ctx }) => {
    assertCanManageTeams(ctx.actor, input.organizationId);
    const team = await findTeamOrThrow(ctx.em, input.organizationId, input.teamId);
    // Team members and SAML default-team references go with it (foreign keys).
    ctx.em.remove(team);
    recordEvent(ctx.em, Events.teamDeleted, { organization: team.organizationId, team: team.id });
    await ctx.em.flush();
  }),

  listTeamMembersInOrganizationById: implement(ops.listTeamMembersInOrganizationById, async ({ input, ctx }) => {
    const { team } = await teamFor(ctx, input, assertCanViewTeam);
    const page = await paginate(ctx.em, TeamMember, { team: team.id }, { addedAt: 'asc', userId: 'asc' }, input, (row) => row);
    const memberships = await ctx.em.find(Membership, { organizationId: team.organizationId, userId: { $in: page.items.map((r) => r.userId) } });
    const byUser = new Map(memberships.map((m) => [m.userId, m]));
    const members = await presentMembers(ctx, team.organizationId, page.items.map((r) => byUser.get(r.userId)!));
    // Whoever can view the team can view its members.
    return { ...page, items: page.items.map((row, i) => ({ organization: members[i]!, team: { role: row.role }, permissions: { view: true } })) };
  }),

  updateMembersInOrganizationTeam: implement(ops.updateMembersInOrganizationTeam, async ({ input, ctx }) => {
    const { team } = await teamFor(ctx, input, assertCanManageTeamMembers);
    await updateTeamMembers(ctx.em, team, input);
    await ctx.em.flush();
  }),

  addMemberToOrganizationTeamById: implement(ops.addMemberToOrganizationTeamById, async ({ input, ctx }) => {
    const { team } = await teamFor(ctx, input, assertCanManageTeamMembers);
    await findMemberOrThrow(ctx.em, team.organizationId, input.userId);
    const existing = await ctx.em.findOne(TeamMember, { team: team.id, userId: input.userId });
    setTeamMember(ctx.em, team, input.userId, input.role, existing);
    await ctx.em.flush();
  }),

  deleteMemberFromOrganizationTeamById: implement(ops.deleteMemberFromOrganizationTeamById, async ({ input, ctx }) => {
    const { team } = await teamFor(ctx, input, assertCanManageTeamMembers);
    const row = await ctx.em.findOne(TeamMember, { team: team.id, userId: input.userId });
    if (!row) throw notFound('Team member');
    removeTeamMember(ctx.em, row);
    await ctx.em.flush();
  }),
};

/**
 * The team with its facts for the caller, once `check` passed: `assertCanViewTeam` (404 unless the caller may
 * see it) or `assertCanManageTeamMembers` (also 403 when the caller may only see it).
 */
async function teamFor(ctx: UserContext, ids: { organizationId: string; teamId: string }, check: (actor: UserContext['actor'], team: TeamAccessFacts) => unknown) {
  requireMembership(ctx.actor, ids.organizationId);
  const team = await findTeamOrThrow(ctx.em, ids.organizationId, ids.teamId);
  const facts = await loadTeamFacts(ctx.em, [team.id], ctx.actor.userId);
  check(ctx.actor, { organizationId: team.organizationId, callerRole: facts.callerRoles.get(team.id) ?? null });
  return { team, facts };
}
