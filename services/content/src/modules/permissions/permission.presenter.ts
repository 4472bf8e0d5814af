import type { List, Role, TeamContentPermission, UserActor, UserContentPermission } from '@quire/contracts';
import { type EntityManager, pageOfList, paginate, teamsByIds, usersByIds } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { CollectionGrant, SpaceGrant } from './grant.entity.ts';
import type { GrantResource, PrincipalKind } from './grant.repository.ts';
import { teamMemberRepository } from './grant.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'peers' | 'requestId' | 'urls'> & { actor: UserActor };
interface PageInput {
  page?: string | undefined;
  limit?: number | undefined;
}

/** One page of the explicit grants of a space or collection to one kind of principal, by principal id. */
async function grantPage(
  em: EntityManager,
  kind: GrantResource,
  resourceId: string,
  principalKind: PrincipalKind,
  input: PageInput,
): Promise<List<{ id: string; role: Role }>> {
  const map = (g: { principalId: string; role: Role }) => ({ id: g.principalId, role: g.role });
  return kind === 'space'
    ? paginate(em, SpaceGrant, { spaceId: resourceId, principalKind }, { principalId: 'asc' }, input, map)
    : paginate(em, CollectionGrant, { collectionId: resourceId, principalKind }, { principalId: 'asc' }, input, map);
}

/** `listUserPermissionsIn…`: the users given an explicit role, with their user objects. */
export async function presentUserGrants(
  ctx: Ctx,
  kind: GrantResource,
  resourceId: string,
  input: PageInput,
): Promise<List<UserContentPermission>> {
  const page = await grantPage(ctx.em, kind, resourceId, 'user', input);
  const users = await usersByIds(
    ctx,
    page.items.map((g) => g.id),
  );
  return { ...page, items: page.items.map((g) => ({ permission: g.role, user: users.get(g.id)! })) };
}

/** `listTeamPermissionsIn…`: the teams given an explicit role, as the caller sees them (a team deleted meanwhile is left out). */
export async function presentTeamGrants(
  ctx: Ctx,
  kind: GrantResource,
  resourceId: string,
  organizationId: string,
  input: PageInput,
): Promise<List<TeamContentPermission>> {
  const page = await grantPage(ctx.em, kind, resourceId, 'team', input);
  const teams = await teamsByIds(
    ctx,
    organizationId,
    page.items.map((g) => g.id),
  );
  return {
    ...page,
    items: page.items.flatMap((g) => {
      const team = teams.get(g.id);
      return team ? [{ permission: g.role, team }] : [];
    }),
  };
}

/**
 * `listPermissionsAggregateIn…`: every member of the organization who can access the content, with the role the
 * policy gives them (organization role, default levels, their grants and their teams'), keyset-paged by user id.
 */
export async function presentAggregate(
  ctx: Ctx,
  organizationId: string,
  roleOf: (actor: UserActor) => Role | null,
  input: PageInput & { role?: Role | undefined },
): Promise<List<UserContentPermission>> {
  const members = await teamMemberRepository.membersWithTeams(ctx.em, organizationId);
  const all = members.flatMap((m) => {
    const actor: UserActor = {
      kind: 'user',
      userId: m.userId,
      memberships: [{ organization: organizationId, role: m.role, teams: m.teams }],
    };
    const role = roleOf(actor);
    return role !== null && (input.role === undefined || role === input.role) ? [{ userId: m.userId, role }] : [];
  });
  all.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const page = pageOfList(all, (m) => [m.userId], input);
  const users = await usersByIds(
    ctx,
    page.items.map((m) => m.userId),
  );
  return { ...page, items: page.items.map((m) => ({ permission: m.role, user: users.get(m.userId)! })) };
}
