import type { List, Member, OrganizationTeamMember as TeamMemberDto } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { IMembership } from '../organizations/organization.entity.ts';
import type { ITeamMember } from '../teams/team.entity.ts';
import { presentUser } from '../users/user.presenter.ts';
import { findMembershipsInOrder, loadMemberFacts, type MemberFacts, type MemberSources } from './member.repository.ts';

export function presentMember(ctx: { urls: PublicUrls }, m: IMembership, facts: MemberFacts): Member {
  const user = facts.users.get(m.userId);
  if (!user) throw new Error(`member ${m.userId} has no user row`);
  return {
    object: 'member',
    id: m.userId,
    role: m.role ?? null,
    user: presentUser(ctx, user),
    disabled: false,
    joinedAt: m.joinedAt.toISOString(),
    ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt.toISOString() } : {}),
    sso: m.sso,
    spaces: facts.spaces[m.userId] ?? 0,
    teams: facts.teams.get(m.userId)?.length ?? 0,
    sites: facts.sites[m.userId] ?? 0,
  };
}

/** Loads what the members show (one batch for the whole page) and presents them in order. */
export async function presentMembers(
  ctx: MemberSources & { urls: PublicUrls },
  organizationId: string,
  memberships: IMembership[],
): Promise<Member[]> {
  const facts = await loadMemberFacts(ctx, organizationId, memberships);
  return memberships.map((m) => presentMember(ctx, m, facts));
}

/** What an invitation did: the users invited, and (SSO invitations) the addresses SSO could not take. */
export const presentInvitation = (
  result: { users: string[]; failedSSOEmails: string[] },
  sso: boolean | undefined,
) => ({
  users: result.users,
  invited: result.users.length,
  ...(sso ? { failedSSOEmails: result.failedSSOEmails } : {}),
});

/** The members of a team (a page of its member rows), each with its organization membership and team role. */
export async function presentTeamMembers(
  ctx: MemberSources & { urls: PublicUrls },
  organizationId: string,
  page: List<ITeamMember>,
): Promise<List<TeamMemberDto>> {
  const memberships = await findMembershipsInOrder(
    ctx.em,
    organizationId,
    page.items.map((r) => r.userId),
  );
  const members = await presentMembers(ctx, organizationId, memberships);
  // Whoever can view the team can view its members.
  return {
    ...page,
    items: page.items.map((row, i) => ({
      organization: members[i]!,
      team: { role: row.role },
      permissions: { view: true },
    })),
  };
}
