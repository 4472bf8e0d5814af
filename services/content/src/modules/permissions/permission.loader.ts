import type { Role, UserActor } from '@quire/contracts';
import { assertPrincipalsIn, DomainError } from '@quire/kit';
import { loadCollectionFor } from '../collections/collection.loader.ts';
import { collectionPolicy, type CollectionAction } from '../collections/collection.policy.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { spacePolicy, type SpaceAction } from '../spaces/space.policy.ts';
import { grantRepository, type GrantResource, type PrincipalKind } from './grant.repository.ts';

/** The space or collection whose explicit roles a call reads or changes. */
export interface GrantTarget {
  resource: { kind: GrantResource; id: string; organizationId: string };
  /** The role a member has on it (explicit, inherited or by organization role), null for none. */
  roleOf: (member: UserActor) => Role | null;
}

const grantTarget = (
  kind: GrantResource,
  resource: { id: string; organizationId: string },
  roleOf: GrantTarget['roleOf'],
): GrantTarget => ({ resource: { kind, id: resource.id, organizationId: resource.organizationId }, roleOf });

/** The space or collection an operation's input names. */
export const resourceIdOf = (input: { spaceId: string } | { collectionId: string }) =>
  'spaceId' in input ? input.spaceId : input.collectionId;

/** The space or collection whose roles the caller may `action` on (see `loadSpaceFor`, `loadCollectionFor`). */
export async function loadGrants(
  ctx: Parameters<typeof loadSpaceFor>[0] & Parameters<typeof loadCollectionFor>[0],
  kind: GrantResource,
  id: string,
  action: Extract<SpaceAction & CollectionAction, 'managePermissions' | 'viewPermissions'>,
): Promise<GrantTarget> {
  if (kind === 'space') {
    const { space, facts } = await loadSpaceFor(ctx, id, action);
    return grantTarget('space', space, (member) => spacePolicy.role(member, facts));
  }
  const { collection, facts } = await loadCollectionFor(ctx, id, action);
  return grantTarget('collection', collection, (member) => collectionPolicy.role(member, facts));
}

/** The users and teams an invitation gives a role to belong to the organization (404 naming one that does not). */
export async function loadInvitees(
  ctx: Parameters<typeof assertPrincipalsIn>[0],
  target: GrantTarget,
  input: { users?: readonly string[] | undefined; teams?: readonly string[] | undefined; role: Role | null },
): Promise<void> {
  if (input.role !== null) await assertPrincipalsIn(ctx, target.resource.organizationId, input);
}

/**
 * A principal's explicit role on the target, which `update…Permission…` changes: 404 when it has none. Returns the
 * principal as the permission writer names it (`users` or `teams`).
 */
export async function loadExplicitGrant(
  ctx: Parameters<typeof loadSpaceFor>[0],
  target: GrantTarget,
  principal: { kind: PrincipalKind; id: string },
): Promise<{ users: string[] } | { teams: string[] }> {
  const { kind, id } = target.resource;
  if ((await grantRepository.roleOf(ctx.em, kind, id, principal)) === null)
    throw new DomainError('not_found', `The ${principal.kind} has no explicit role on the ${kind}`);
  return principal.kind === 'user' ? { users: [principal.id] } : { teams: [principal.id] };
}
