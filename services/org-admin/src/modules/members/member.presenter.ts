import type { Member } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { IMembership } from '../organizations/organization.entity.ts';
import { presentUser } from '../users/user.presenter.ts';
import { loadMemberFacts, type MemberFacts, type MemberSources } from './member.repository.ts';

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
export async function presentMembers(ctx: MemberSources & { urls: PublicUrls }, organizationId: string, memberships: IMembership[]): Promise<Member[]> {
  const facts = await loadMemberFacts(ctx, organizationId, memberships);
  return memberships.map((m) => presentMember(ctx, m, facts));
}
