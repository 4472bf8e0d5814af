import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { memberInviter } from '../../commands/member-inviter.ts';
import { memberRemover, memberRoleUpdater, memberSeenRecorder, memberSsoEnabler } from '../../commands/member-updater.ts';
import { containsPattern } from '../../db/like.ts';
import { Membership } from '../organizations/organization.entity.ts';
import { organizationPolicy } from '../organizations/organization.policy.ts';
import { organizationRepository } from '../organizations/organization.repository.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { presentTeams } from '../teams/team.presenter.ts';
import { loadMemberFor } from './member.loader.ts';
import { presentMembers } from './member.presenter.ts';
import { memberOrder, memberWhere } from './member.repository.ts';
import { signVisitorClaims } from './visitor-claims.ts';

export const memberProcedures = {
  getMembersByIds: implement(ops.getMembersByIds, async ({ input, ctx }) => {
    const ids = [...new Set(input.ids)];
    const found = ids.length ? await ctx.em.find(Membership, { organizationId: input.organizationId, userId: { $in: ids } }) : [];
    const byUser = new Map(found.map((m) => [m.userId, m]));
    return { items: await presentMembers(ctx, input.organizationId, ids.flatMap((id) => byUser.get(id) ?? [])) };
  }),

  listMembersInOrganizationById: implement(ops.listMembersInOrganizationById, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'listMembers');
    const page = await paginate(ctx.em, Membership, memberWhere(input), memberOrder(input), input, (m) => m);
    return { ...page, items: await presentMembers(ctx, input.organizationId, page.items) };
  }),

  getMemberInOrganizationById: implement(ops.getMemberInOrganizationById, async ({ input, ctx }) => {
    const membership = await loadMemberFor(ctx, input, 'view');
    return (await presentMembers(ctx, input.organizationId, [membership]))[0]!;
  }),

  updateMemberInOrganizationById: implement(ops.updateMemberInOrganizationById, async ({ input, ctx }) => {
    const membership = await memberRoleUpdater(ctx.em, { membership: await loadMemberFor(ctx, input, 'manage'), role: input.role });
    return (await presentMembers(ctx, input.organizationId, [membership]))[0]!;
  }),

  removeMemberFromOrganizationById: implement(ops.removeMemberFromOrganizationById, async ({ input, ctx }) => {
    await memberRemover(ctx.em, { membership: await loadMemberFor(ctx, input, 'manage') });
  }),

  updateOrganizationMemberLastSeenAt: implement(ops.updateOrganizationMemberLastSeenAt, async ({ input, ctx }) => {
    const membership = memberSeenRecorder(ctx.em, { membership: await loadMemberFor(ctx, { ...input, userId: ctx.actor.userId }, 'view') });
    const serviceVisitorClaims = await signVisitorClaims(
      { userId: membership.userId, organizationId: membership.organizationId, role: membership.role ?? null, sso: membership.sso },
      { internalSecret: ctx.config.QUIRE_INTERNAL_SECRET, issuer: ctx.config.QUIRE_PUBLIC_URL, now: membership.lastSeenAt ?? new Date() },
    );
    return { serviceVisitorClaims };
  }),

  setUserAsSSOMemberForOrganization: implement(ops.setUserAsSSOMemberForOrganization, async ({ input, ctx }) => {
    const membership = memberSsoEnabler(ctx.em, { membership: await loadMemberFor(ctx, input, 'manage') });
    return (await presentMembers(ctx, input.organizationId, [membership]))[0]!;
  }),

  listTeamsForOrganizationMember: implement(ops.listTeamsForOrganizationMember, async ({ input, ctx }) => {
    await loadMemberFor(ctx, input, 'view');
    const where = { organizationId: input.organizationId, userId: input.userId, ...(input.title ? { team: { title: { $ilike: containsPattern(input.title) } } } : {}) };
    const page = await paginate(ctx.em, TeamMember, where, { addedAt: 'asc', team: 'asc' }, input, (row) => row);
    const teams = await presentTeams(ctx, page.items.map((row) => row.team.id));
    return { ...page, items: page.items.map((row) => ({ team: teams.get(row.team.id)!, member: { role: row.role } })) };
  }),

  inviteUsersToOrganization: implement(ops.inviteUsersToOrganization, async ({ input, ctx }) => {
    organizationPolicy.assert(ctx.actor, input, 'manageMembers');
    const org = await organizationRepository.findOrThrow(ctx.em, input.organizationId);
    const fallbackRole = input.role !== undefined ? input.role : (org.defaultRole ?? 'read');
    const invites = input.emails.map((e) => (typeof e === 'string' ? { email: e, role: fallbackRole } : e));
    const result = await memberInviter(ctx.em, { organizationId: org.id, invites, sso: input.sso ?? false });
    return { users: result.users, invited: result.users.length, ...(input.sso ? { failedSSOEmails: result.failedSSOEmails } : {}) };
  }),
};
