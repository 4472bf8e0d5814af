import { ops, type Team, type User, type UserActor } from '@quire/contracts';
import { DomainError } from './errors.ts';
import type { ServiceClients } from './rpc/client.ts';
import type { PublicUrls } from './urls.ts';

/**
 * Org-admin's directory of users, members and teams, as the other services ask it (org-admin owns all three):
 * one batched call each, as this service itself.
 */
interface DirectoryContext {
  peers: ServiceClients;
  requestId: string;
}

/**
 * The users and teams an invitation names must belong to the organization (asked before the mutation's transaction
 * opens). 404 naming the first unknown one (GitBook: "No team or user with the provided Id").
 */
export async function assertPrincipalsIn(
  ctx: DirectoryContext & { actor: UserActor },
  organizationId: string,
  principals: { users?: readonly string[] | undefined; teams?: readonly string[] | undefined },
): Promise<void> {
  const users = [...new Set(principals.users ?? [])];
  const teams = [...new Set(principals.teams ?? [])];
  if (users.length) {
    const { items } = await ctx.peers.asService(ops.getMembersByIds, { organizationId, ids: users }, ctx.requestId);
    const found = new Set(items.map((m) => m.user.id));
    const missing = users.find((id) => !found.has(id));
    if (missing) throw new DomainError('not_found', `No member ${missing} in the organization`);
  }
  if (teams.length) {
    const found = await teamsByIds(ctx, organizationId, teams);
    const missing = teams.find((id) => !found.has(id));
    if (missing) throw new DomainError('not_found', `No team ${missing} in the organization`);
  }
}

/** Teams of the organization by id, as the caller sees them; unknown ones left out. */
export async function teamsByIds(
  ctx: DirectoryContext & { actor: UserActor },
  organizationId: string,
  ids: string[],
): Promise<Map<string, Team>> {
  const out = new Map<string, Team>();
  if (!ids.length) return out;
  const { items } = await ctx.peers.asService(
    ops.getTeamsByIds,
    { organizationId, ids, viewer: ctx.actor.userId },
    ctx.requestId,
  );
  for (const t of items) out.set(t.id, t);
  return out;
}

/** Users by id; one org-admin does not know (any more) is shown by id only. */
export async function usersByIds(
  ctx: DirectoryContext & { urls: PublicUrls },
  ids: Iterable<string>,
): Promise<Map<string, User>> {
  const wanted = [...new Set(ids)];
  const out = new Map<string, User>();
  if (!wanted.length) return out;
  const { items } = await ctx.peers.asService(ops.getUsersByIds, { ids: wanted }, ctx.requestId);
  for (const u of items) out.set(u.id, u);
  for (const id of wanted)
    if (!out.has(id))
      out.set(id, { object: 'user', id, displayName: id, urls: { location: ctx.urls.api(`/users/${id}`) } });
  return out;
}
