import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { inviteSender } from '../../commands/invite-sender.ts';
import { inviteWithdrawer } from '../../commands/invite-withdrawer.ts';
import { memberInviter } from '../../commands/member-inviter.ts';
import {
  memberRemover,
  memberRoleUpdater,
  memberSeenRecorder,
  memberSsoEnabler,
} from '../../commands/member-updater.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { presentTeams } from '../teams/team.presenter.ts';
import { loadInvitation, loadMemberFor } from './member.loader.ts';
import { presentInvitation, presentMembers } from './member.presenter.ts';
import {
  findMembershipsInOrder,
  memberOrder,
  membersForAccess,
  memberTeamsWhere,
  memberWhere,
} from './member.repository.ts';
import { signVisitorClaims } from './visitor-claims.ts';
import { Invite } from '../sign-in/sign-in.entity.ts';
import { assertInvitesFor, loadPendingInviteFor, pendingInvitesOf } from './invite.loader.ts';
import { presentInvites } from './invite.presenter.ts';

export const memberProcedures = {
  getMembersByIds: implement(ops.getMembersByIds, async ({ input, ctx }) => {
    const memberships = await findMembershipsInOrder(ctx.em, input.organizationId, input.ids);
    return { items: await presentMembers(ctx, input.organizationId, memberships) };
  }),

  listMembersForAccess: implement(ops.listMembersForAccess, async ({ input, ctx }) => ({
    items: await membersForAccess(ctx.em, input),
  })),

  listMembersInOrganizationById: implement(ops.listMembersInOrganizationById, async ({ input, ctx }) => {
    assertOrganizationAction(ctx, input, 'listMembers');
    const page = await paginate(ctx.em, Membership, memberWhere(input), memberOrder(input), input, (m) => m);
    return { ...page, items: await presentMembers(ctx, input.organizationId, page.items) };
  }),

  getMemberInOrganizationById: implement(ops.getMemberInOrganizationById, async ({ input, ctx }) => {
    const membership = await loadMemberFor(ctx, input, 'view');
    return (await presentMembers(ctx, input.organizationId, [membership]))[0]!;
  }),

  updateMemberInOrganizationById: implement(ops.updateMemberInOrganizationById, async ({ input, ctx }) => {
    const membership = await memberRoleUpdater(ctx.em, {
      membership: await loadMemberFor(ctx, input, 'manage'),
      role: input.role,
    });
    return (await presentMembers(ctx, input.organizationId, [membership]))[0]!;
  }),

  removeMemberFromOrganizationById: implement(ops.removeMemberFromOrganizationById, async ({ input, ctx }) => {
    await memberRemover(ctx.em, { membership: await loadMemberFor(ctx, input, 'manage') });
  }),

  updateOrganizationMemberLastSeenAt: implement(ops.updateOrganizationMemberLastSeenAt, async ({ input, ctx }) => {
    const membership = memberSeenRecorder(ctx.em, {
      membership: await loadMemberFor(ctx, { ...input, userId: ctx.actor.userId }, 'view'),
    });
    const serviceVisitorClaims = await signVisitorClaims(
      {
        userId: membership.userId,
        organizationId: membership.organizationId,
        role: membership.role ?? null,
        sso: membership.sso,
      },
      {
        internalSecret: ctx.config.QUIRE_INTERNAL_SECRET,
        issuer: ctx.config.QUIRE_PUBLIC_URL,
        now: membership.lastSeenAt ?? new Date(),
      },
    );
    return { serviceVisitorClaims };
  }),

  setUserAsSSOMemberForOrganization: implement(ops.setUserAsSSOMemberForOrganization, async ({ input, ctx }) => {
    const membership = memberSsoEnabler(ctx.em, { membership: await loadMemberFor(ctx, input, 'manage') });
    return (await presentMembers(ctx, input.organizationId, [membership]))[0]!;
  }),

  listTeamsForOrganizationMember: implement(ops.listTeamsForOrganizationMember, async ({ input, ctx }) => {
    await loadMemberFor(ctx, input, 'view');
    const where = memberTeamsWhere(input);
    const page = await paginate(ctx.em, TeamMember, where, { addedAt: 'asc', team: 'asc' }, input, (row) => row);
    const teams = await presentTeams(
      ctx,
      page.items.map((row) => row.team.id),
    );
    return { ...page, items: page.items.map((row) => ({ team: teams.get(row.team.id)!, member: { role: row.role } })) };
  }),

  inviteUsersToOrganization: implement(ops.inviteUsersToOrganization, async ({ input, ctx }) => {
    const { organization, invites } = await loadInvitation(ctx, input);
    const result = await memberInviter(ctx.em, { organizationId: organization.id, invites, sso: input.sso ?? false });
    await inviteSender(ctx.em, ctx, { organization, invited: result.invited });
    return presentInvitation(result, input.sso);
  }),

  listOrganizationInvites: implement(ops.listOrganizationInvites, async ({ input, ctx }) => {
    assertInvitesFor(ctx, input.organizationId);
    const page = await paginate(
      ctx.em,
      Invite,
      pendingInvitesOf(input.organizationId),
      { createdAt: 'desc', id: 'desc' },
      input,
      (invite) => invite,
    );
    return presentInvites(ctx.em, page);
  }),

  deleteOrganizationInvite: implement(ops.deleteOrganizationInvite, async ({ input, ctx }) => {
    inviteWithdrawer(ctx.em, { invite: await loadPendingInviteFor(ctx, input) });
  }),
};
