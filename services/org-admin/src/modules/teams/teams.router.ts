import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { teamCreator, teamDeleter, teamMemberDeleter, teamMembersUpdater, teamMemberUpserter, teamRenamer } from '../../commands/team-member-updater.ts';
import { containsPattern } from '../../db/like.ts';
import { presentMembers } from '../members/member.presenter.ts';
import { findMembership } from '../members/member.repository.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { organizationPolicy } from '../organizations/organization.policy.ts';
import { Team, TeamMember } from './team.entity.ts';
import { loadTeamFor } from './team.loader.ts';
import { presentTeam, presentTeams } from './team.presenter.ts';
import { findTeamOrThrow, loadTeamFacts, teamIdsWithRole } from './team.repository.ts';

export const teamProcedures = {
  listTeamsInOrganizationById: implement(ops.listTeamsInOrganizationById, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'listTeams');
    const where: Record<string, unknown> = { organizationId: input.organizationId };
    if (input.title) where.title = { $ilike: containsPattern(input.title) };
    if (input.owner !== undefined) {
      // Only the teams the member can manage: all of them for an organization admin, else the teams they own.
      const owner = await findMembership(ctx.em, input.organizationId, input.owner);
      if (!owner) where.id = { $in: [] };
      else if (owner.role !== 'admin') where.id = { $in: await teamIdsWithRole(ctx.em, input.organizationId, owner.userId, 'owner') };
    }
    const page = await paginate(ctx.em, Team, where, { createdAt: 'asc', id: 'asc' }, input, (t) => t);
    const facts = await loadTeamFacts(ctx.em, page.items.map((t) => t.id), ctx.actor.userId);
    return { ...page, items: page.items.map((t) => presentTeam(ctx, t, facts)) };
  }),

  createOrganizationTeam: implement(ops.createOrganizationTeam, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'manageTeams');
    const team = await teamCreator(ctx.em, input);
    return (await presentTeams(ctx, [team.id])).get(team.id)!;
  }),

  getTeamInOrganizationById: implement(ops.getTeamInOrganizationById, async ({ input, ctx }) => {
    const { team, facts } = await loadTeamFor(ctx, input, 'view');
    return presentTeam(ctx, team, facts);
  }),

  updateTeamInOrganizationById: implement(ops.updateTeamInOrganizationById, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'manageTeams');
    const team = teamRenamer(ctx.em, { team: await findTeamOrThrow(ctx.em, input.organizationId, input.teamId), title: input.title });
    return presentTeam(ctx, team, await loadTeamFacts(ctx.em, [team.id], ctx.actor.userId));
  }),

  removeTeamFromOrganizationById: implement(ops.removeTeamFromOrganizationById, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'manageTeams');
    teamDeleter(ctx.em, { team: await findTeamOrThrow(ctx.em, input.organizationId, input.teamId) });
  }),

  listTeamMembersInOrganizationById: implement(ops.listTeamMembersInOrganizationById, async ({ input, ctx }) => {
    const { team } = await loadTeamFor(ctx, input, 'view');
    const page = await paginate(ctx.em, TeamMember, { team: team.id }, { addedAt: 'asc', userId: 'asc' }, input, (row) => row);
    const memberships = await ctx.em.find(Membership, { organizationId: team.organizationId, userId: { $in: page.items.map((r) => r.userId) } });
    const byUser = new Map(memberships.map((m) => [m.userId, m]));
    const members = await presentMembers(ctx, team.organizationId, page.items.map((r) => byUser.get(r.userId)!));
    // Whoever can view the team can view its members.
    return { ...page, items: page.items.map((row, i) => ({ organization: members[i]!, team: { role: row.role }, permissions: { view: true } })) };
  }),

  updateMembersInOrganizationTeam: implement(ops.updateMembersInOrganizationTeam, async ({ input, ctx }) => {
    const { team } = await loadTeamFor(ctx, input, 'manageMembers');
    await teamMembersUpdater(ctx.em, { ...input, team });
  }),

  addMemberToOrganizationTeamById: implement(ops.addMemberToOrganizationTeamById, async ({ input, ctx }) => {
    const { team } = await loadTeamFor(ctx, input, 'manageMembers');
    await teamMemberUpserter(ctx.em, { team, userId: input.userId, role: input.role });
  }),

  deleteMemberFromOrganizationTeamById: implement(ops.deleteMemberFromOrganizationTeamById, async ({ input, ctx }) => {
    const { team } = await loadTeamFor(ctx, input, 'manageMembers');
    await teamMemberDeleter(ctx.em, { team, userId: input.userId });
  }),
};
