import type { FilterQuery } from '@mikro-orm/core';
import type { Actor, Role } from '@quire/contracts';
import { membershipOf } from '@quire/kit';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';
import { sitePolicy, type SiteGrantFact } from '../sites/site.policy.ts';
import { siteGrantRepository } from './site-grant.repository.ts';

/**
 * The sites of an organization the caller may list, as a filter: all of them for admins; for other members every
 * site but those an override closes to them; for guests only those an override opens (null: none). The overrides
 * naming the caller or its teams are few: read once, decided by the site policy.
 */
export async function visibleSitesWhere(
  ctx: Pick<SitesContext, 'em' | 'actor'>,
  organizationId: string,
): Promise<FilterQuery<ISite> | null> {
  const m = membershipOf(ctx.actor, organizationId);
  if (!m || ctx.actor.kind !== 'user') return null;
  if (m.role === 'admin') return {};
  const overrides = await siteGrantRepository.ofPrincipals(ctx.em, organizationId, ctx.actor.userId, m.teams);
  const decided = [...overrides].map(([id, grants]) => ({
    id,
    open: sitePolicy.role(ctx.actor, { organizationId, grants }) !== null,
  }));
  if (m.role === null) {
    const open = decided.filter((d) => d.open).map((d) => d.id);
    return open.length ? { id: { $in: open } } : null;
  }
  const closed = decided.filter((d) => !d.open).map((d) => d.id);
  return closed.length ? { id: { $nin: closed } } : {};
}

/**
 * How many of the organization's `total` sites a member can see (`members.sites`): every one with a role, none as a
 * guest, then each site whose overrides name the member or one of its teams decided by the site policy.
 */
export function sitesVisibleTo(
  organizationId: string,
  m: { userId: string; role: Role | null; teams: string[] },
  total: number,
  overrides: ReadonlyMap<string, readonly SiteGrantFact[]>,
): number {
  const actor: Actor = {
    kind: 'user',
    userId: m.userId,
    memberships: [{ organization: organizationId, role: m.role, teams: m.teams }],
  };
  const byDefault = m.role !== null;
  let n = byDefault ? total : 0;
  if (m.role === 'admin') return n;
  for (const grants of overrides.values()) {
    const open = sitePolicy.role(actor, { organizationId, grants }) !== null;
    if (open !== byDefault) n += open ? 1 : -1;
  }
  return n;
}
