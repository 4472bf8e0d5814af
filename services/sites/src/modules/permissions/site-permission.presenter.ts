import { type Actor, type List, ops, type Role, type UserActor, type UserSitePermission } from '@quire/contracts';
import { compareKeys, highestRole, pageOfList, paginate, teamsByIds, usersByIds } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';
import { type SiteGrantFact, sitePolicy } from '../sites/site.policy.ts';
import { SiteGrant } from './site-grant.entity.ts';
import { siteGrantRepository, type PrincipalKind } from './site-grant.repository.ts';

type Ctx = Pick<SitesContext, 'em' | 'peers' | 'requestId' | 'urls'> & { actor: UserActor };

export interface SiteAggregateInput {
  page?: string | undefined;
  limit?: number | undefined;
  order: 'asc' | 'desc';
  role?: Role | 'guest' | undefined;
  search?: string | undefined;
  sort: 'joinedAt' | 'lastSeenAt' | 'name';
  team?: string | undefined;
}

type Origin = UserSitePermission['origin'];

/**
 * What decided a member's role on a site, following the site policy's order: an organization admin's role is the
 * organization's; then the member's own override, then the override of the team whose role won; else the
 * organization role.
 */
export function siteOriginOf(
  site: { id: string; organizationId: string },
  m: { userId: string; role: Role | null; teams: readonly string[] },
  grants: readonly SiteGrantFact[],
): Origin {
  const organization: Origin = { type: 'organization', organization: site.organizationId };
  if (m.role === 'admin') return organization;
  if (grants.some((g) => g.kind === 'user' && g.id === m.userId))
    return { type: 'site', site: site.id, reason: 'member' };
  const byTeams = grants.filter((g) => g.kind === 'team' && m.teams.includes(g.id));
  if (byTeams.length) {
    const best = highestRole(byTeams.map((g) => g.role));
    const team = byTeams.find((g) => g.role === best) ?? byTeams[0]!;
    return { type: 'site', site: site.id, reason: 'team', team: team.id };
  }
  return organization;
}

/**
 * `listPermissionsAggregateInSite`: every member of the organization who can access the site (org-admin lists the
 * members matching `search`/`team`, the site policy decides each one with the site's overrides), with the role and
 * its origin, sorted by `sort` then user id and keyset-paged on that key.
 */
export async function presentSiteAggregate(
  ctx: Ctx,
  site: ISite,
  input: SiteAggregateInput,
): Promise<List<UserSitePermission>> {
  const organizationId = site.organizationId;
  const [grants, { items: members }] = await Promise.all([
    siteGrantRepository.of(ctx.em, site.id),
    ctx.peers.asService(
      ops.listMembersForAccess,
      {
        organizationId,
        ...(input.search ? { search: input.search } : {}),
        ...(input.team ? { team: input.team } : {}),
        seenOnly: input.sort === 'lastSeenAt',
      },
      ctx.requestId,
    ),
  ]);
  const keyOf = (m: (typeof members)[number]): string =>
    input.sort === 'name' ? m.sortName : input.sort === 'lastSeenAt' ? (m.lastSeenAt ?? '') : m.joinedAt;
  const rows = members.flatMap((m) => {
    const actor: Actor = {
      kind: 'user',
      userId: m.userId,
      memberships: [{ organization: organizationId, role: m.role, teams: m.teams }],
    };
    const permission = sitePolicy.role(actor, { organizationId, grants });
    // No role on the site (the policy gives none below `read`): not among those who can access it.
    if (permission === null || permission === 'guest') return [];
    if (input.role !== undefined && (input.role === 'guest' ? m.role !== null : permission !== input.role)) return [];
    return [{ m, permission, key: [keyOf(m), m.userId] as const }];
  });
  const order = input.order === 'asc' ? 'asc' : 'desc';
  rows.sort((a, b) => (order === 'asc' ? 1 : -1) * compareKeys(a.key, b.key));
  const page = pageOfList(rows, (r) => r.key, input, order);
  const users = await usersByIds(
    ctx,
    page.items.map((r) => r.m.userId),
  );
  return {
    ...page,
    items: page.items.map((r) => ({
      permission: r.permission,
      user: users.get(r.m.userId)!,
      origin: siteOriginOf(site, r.m, grants),
      disabled: false,
      ...(r.m.lastSeenAt ? { lastSeenAt: r.m.lastSeenAt } : {}),
    })),
  };
}

interface PageInput {
  page?: string | undefined;
  limit?: number | undefined;
}

/** One page of a site's role overrides to one kind of principal, by principal id. */
const overridePage = (ctx: Pick<SitesContext, 'em'>, siteId: string, principalKind: PrincipalKind, input: PageInput) =>
  paginate(ctx.em, SiteGrant, { siteId, principalKind }, { principalId: 'asc' }, input, (g) => ({
    id: g.principalId,
    role: g.role ?? null,
  }));

/** `listUserPermissionsInSite`: the users with a role override, with their user objects. */
export async function presentSiteUserGrants(ctx: Ctx, site: ISite, input: PageInput) {
  const grants = await overridePage(ctx, site.id, 'user', input);
  const users = await usersByIds(
    ctx,
    grants.items.map((g) => g.id),
  );
  return { ...grants, items: grants.items.map((g) => ({ permission: g.role, user: users.get(g.id)! })) };
}

/** `listTeamPermissionsInSite`: the teams with a role override (a team deleted since is left out). */
export async function presentSiteTeamGrants(ctx: Ctx, site: ISite, input: PageInput) {
  const grants = await overridePage(ctx, site.id, 'team', input);
  const teams = await teamsByIds(
    ctx,
    site.organizationId,
    grants.items.map((g) => g.id),
  );
  return {
    ...grants,
    items: grants.items.flatMap((g) => {
      const team = teams.get(g.id);
      return team ? [{ permission: g.role, team }] : [];
    }),
  };
}
