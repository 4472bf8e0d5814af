import { Events, ops } from '@quire/contracts';
import { notFound, paginate, recordEvent } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { setMembership } from '../../commands/member-adder.ts';
import { inviteMembers } from '../../commands/member-inviter.ts';
import { removeTeamMember } from '../../commands/team-member-updater.ts';
import { Membership, Organization } from '../organizations/organization.entity.ts';
import { assertCanListMembers, requireMembership } from '../organizations/organization.policy.ts';
import { Team, TeamMember } from '../teams/team.entity.ts';
import { presentTeam } from '../teams/team.presenter.ts';
import { loadTeamFacts } from '../teams/team.repository.ts';
import { containsPattern } from '../../db/like.ts';
import { assertCanManageMembers, assertCanViewMember, assertKeepsAnAdmin } from './member.policy.ts';
import { presentMembers } from './member.presenter.ts';
import { countAdmins, findMemberOrThrow, memberOrder, memberWhere } from './member.repository.ts';
import { signVisitorClaims } from './visitor-claims.ts';

export const memberProcedures = {
  listMembersInOrganizationById: implement(ops.listMembersInOrganizationById, async ({ input, ctx }) => {
    assertCanListMembers(ctx.actor, input.organizationId);
    const page = await paginate(ctx.em, Membership, memberWhere(input), memberOrder(input), input, (m) => m);
    return { ...page, items: await presentMembers(ctx, input.organizationId, page.items) };
  }),

  getMemberInOrganizationById: implement(ops.getMemberInOrganizationById, async ({ input, ctx }) => {
    assertCanViewMember(ctx.actor, input.organizationId, input.userId);
    const m = await findMemberOrThrow(ctx.em, input.organizationId, input.userId);
    return (await presentMembers(ctx, input.organizationId, [m]))[0]!;
  }),

  updateMemberInOrganizationById: implement(ops.updateMemberInOrganizationById, async ({ input, ctx }) => {
    assertCanManageMembers(ctx.actor, input.organizationId);
    let m = await findMemberOrThrow(ctx.em, input.organizationId, input.userId);
    if (input.role !== undefined && input.role !== m.role) {
      if (m.role === 'admin') assertKeepsAnAdmin(m.role, input.role, await countAdmins(ctx.em, input.organizationId));
      m = await setMembership(ctx.em, { organizationId: input.organizationId, userId: input.userId, role: input.role });
      await ctx.em.flush();
    }
    return (await presentMembers(ctx, input.organizationId, [m]))[0]!;
  }),

  removeMemberFromOrganizationById: implement(ops.removeMemberFromOrganizationById, async ({ input, ctx }) => {
    assertCanManageMembers(ctx.actor, input.organizationId);
    const m = await findMemberOrThrow(ctx.em, input.organizationId, input.userId);
    if (m.role === 'admin') assertKeepsAnAdmin(m.role, 'removed', await countAdmins(ctx.em, input.organizationId));
    // The database would drop the team rows too (foreign key); removing them here records their events.
    for (const row of await ctx.em.find(TeamMember, { organizationId: input.organizationId, userId: input.userId })) removeTeamMember(ctx.em, row);
    ctx.em.remove(m);
    recordEvent(ctx.em, Events.memberRemoved, { organization: input.organizationId, user: input.userId });
    await ctx.em.flush();
  }),

  updateOrganizationMemberLastSeenAt: implement(ops.updateOrganizationMemberLastSeenAt, async ({ input, ctx }) => {
    requireMembership(ctx.actor, input.organizationId);
    const m = await ctx.em.findOne(Membership, { organizationId: input.organizationId, userId: ctx.actor.userId });
    if (!m) throw notFound('Organization');
    const now = new Date();
    m.lastSeenAt = now;
    await ctx.em.flush();
    const serviceVisitorClaims = await signVisitorClaims(
      { userId: m.userId, organizationId: m.organizationId, role: m.role ?? null, sso: m.sso },
      { internalSecret: ctx.config.QUIRE_INTERNAL_SECRET, issuer: ctx.config.QUIRE_PUBLIC_URL, now },
    );
    return { serviceVisitorClaims };
  }),

  setUserAsSSOMemberForOrganization: implement(ops.setUserAsSSOMemberForOrganization, async ({ input, ctx }) => {
    assertCanManageMembers(ctx.actor, input.organizationId);
    const m = await findMemberOrThrow(ctx.em, input.organizationId, input.userId);
    if (!m.sso) {
      m.sso = true;
      await ctx.em.flush();
    }
    return (await presentMembers(ctx, input.organizationId, [m]))[0]!;
  }),

  listTeamsForOrganizationMember: implement(ops.listTeamsForOrganizationMember, async ({ input, ctx }) => {
    assertCanViewMember(ctx.actor, input.organizationId, input.userId);
    await findMemberOrThrow(ctx.em, input.organizationId, input.userId);
    const where = { organizationId: input.organizationId, userId: input.userId, ...(input.title ? { team: { title: { $ilike: containsPattern(input.title) } } } : {}) };
    const page = await paginate(ctx.em, TeamMember, where, { addedAt: 'asc', team: 'asc' }, input, (row) => row);
    const teams = await ctx.em.find(Team, { id: { $in: page.items.map((row) => row.team.id) } });
    const byId = new Map(teams.map((t) => [t.id, t]));
    const facts = await loadTeamFacts(ctx.em, teams.map((t) => t.id), ctx.actor.userId);
    return { ...page, items: page.items.map((row) => ({ team: presentTeam(byId.get(row.team.id)!, facts, ctx.actor), member: { role: row.role } })) };
  }),

  inviteUsersToOrganization: implement(ops.inviteUsersToOrganization, async ({ input, ctx }) => {
    assertCanManageMembers(ctx.actor, input.organizationId);
    const org = await ctx.em.findOne(Organization, { id: input.organizationId });
    if (!org) throw notFound('Organization');
    const fallbackRole = input.role !== undefined ? input.role : (org.defaultRole ?? 'read');
    const invites = input.emails.map((e) => (typeof e === 'string' ? { email: e, role: fallbackRole } : e));
    const result = await ctx.em.transactional((em) => inviteMembers(em, { organizationId: org.id, invites, sso: input.sso ?? false }));
    return { users: result.users, invited: result.users.length, ...(input.sso ? { failedSSOEmails: result.failedSSOEmails } : {}) };
  }),
};
