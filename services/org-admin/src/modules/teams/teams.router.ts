import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import {
  teamCreator,
  teamDeleter,
  teamMemberDeleter,
  teamMembersUpdater,
  teamMemberUpserter,
  teamRenamer,
} from '../../commands/team-member-updater.ts';
import { presentTeamMembers } from '../members/member.presenter.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';
import { tokenRepository } from '../tokens/token.repository.ts';
import { loadTeamFor, loadTeamsFor } from './team.loader.ts';
import { presentTeamList, presentTeams, presentTeamsByIds } from './team.presenter.ts';
import { findTeamOrThrow, teamMembersPage } from './team.repository.ts';

export const teamProcedures = {
  listTeamsInOrganizationById: implement(ops.listTeamsInOrganizationById, async ({ input, ctx }) => {
    const { page, facts } = await loadTeamsFor(ctx, input);
    return { ...page, items: await presentTeamList(ctx, page.items, facts) };
  }),

  createOrganizationTeam: implement(ops.createOrganizationTeam, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageTeams');
    const team = await teamCreator(ctx.em, input);
    return (await presentTeams(ctx, [team.id])).get(team.id)!;
  }),

  getTeamInOrganizationById: implement(ops.getTeamInOrganizationById, async ({ input, ctx }) => {
    const { team, facts } = await loadTeamFor(ctx, input, 'view');
    return (await presentTeamList(ctx, [team], facts))[0]!;
  }),

  updateTeamInOrganizationById: implement(ops.updateTeamInOrganizationById, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageTeams');
    const team = teamRenamer(ctx.em, {
      team: await findTeamOrThrow(ctx.em, input.organizationId, input.teamId, true),
      title: input.title,
    });
    return (await presentTeamList(ctx, [team]))[0]!;
  }),

  removeTeamFromOrganizationById: implement(ops.removeTeamFromOrganizationById, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'manageTeams');
    teamDeleter(ctx.em, { team: await findTeamOrThrow(ctx.em, input.organizationId, input.teamId, true) });
  }),

  listTeamMembersInOrganizationById: implement(ops.listTeamMembersInOrganizationById, async ({ input, ctx }) => {
    const { team } = await loadTeamFor(ctx, input, 'view');
    const page = await teamMembersPage(ctx.em, team.id, input);
    return presentTeamMembers(ctx, team.organizationId, page);
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

  /** Content and sites present the teams given a role on a space, collection or site, as the caller sees them. */
  getTeamsByIds: implement(ops.getTeamsByIds, async ({ input, ctx }) => {
    const viewer = await tokenRepository.actorOf(ctx.em, input.viewer);
    return presentTeamsByIds(ctx, viewer, input.ids, input.organizationId);
  }),
};
