import type { UserContext } from '../../trpc.ts';
import type { IOrganization } from './organization.entity.ts';
import { organizationPolicy, type OrganizationAccessFacts } from './organization.policy.ts';
import { organizationRepository } from './organization.repository.ts';

export type OrganizationAction = keyof typeof organizationPolicy.actions;

/**
 * The caller may `action` in the organization (404 when it is not a member, 403 when its role is too low). For the
 * operations on what an organization holds (its members, teams, SSO providers) that read nothing more to decide.
 */
export function assertOrganizationAction(
  ctx: Pick<UserContext, 'actor'>,
  ids: OrganizationAccessFacts,
  action: OrganizationAction,
): void {
  organizationPolicy.assert(ctx.actor, ids, action);
}

/** The organization the caller may `action` on (404 not a member or no such organization, 403 too low a role). */
export async function loadOrganizationFor(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  ids: OrganizationAccessFacts,
  action: OrganizationAction,
): Promise<IOrganization> {
  organizationPolicy.assert(ctx.actor, ids, action);
  return organizationRepository.findOrThrow(ctx.em, ids.organizationId);
}
