import { Events, type Role } from '@quire/contracts';
import { principalsOf, recordEvent, type EntityManager } from '@quire/kit';
import { grantRepository, type GrantResource } from '../modules/permissions/grant.repository.ts';

export interface PermissionWriterProps {
  resource: { kind: GrantResource; id: string; organizationId: string };
  users?: readonly string[] | undefined;
  teams?: readonly string[] | undefined;
  /** The role to give; null removes the explicit role of each one. */
  role: Role | null;
  now?: Date;
}

/**
 * Gives users and teams a role on a space or collection (or removes it: `role` null), in the caller's transaction;
 * `permissions.updated` records what changed. Whether the principals belong to the organization is checked before.
 * Returns how many explicit roles were written or removed.
 */
export async function permissionWriter(em: EntityManager, props: PermissionWriterProps): Promise<number> {
  const { resource, role } = props;
  const now = props.now ?? new Date();
  const principals = principalsOf(props);
  let changed = 0;
  for (const principal of principals) {
    if (role === null) changed += (await grantRepository.delete(em, resource.kind, resource.id, principal)) ? 1 : 0;
    else {
      await grantRepository.upsert(em, resource.kind, resource.id, resource.organizationId, principal, role, now);
      changed++;
    }
  }
  if (changed) {
    recordEvent(em, Events.permissionsUpdated, {
      organization: resource.organizationId,
      ...(resource.kind === 'space' ? { space: resource.id } : { collection: resource.id }),
      users: principals.filter((p) => p.kind === 'user').map((p) => p.id),
      teams: principals.filter((p) => p.kind === 'team').map((p) => p.id),
      role,
    });
  }
  return changed;
}
