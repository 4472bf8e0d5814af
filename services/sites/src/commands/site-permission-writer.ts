import { Events, type Role } from '@quire/contracts';
import { principalsOf, recordEvent, type EntityManager } from '@quire/kit';
import { siteGrantRepository } from '../modules/permissions/site-grant.repository.ts';

export interface SitePermissionWriterProps {
  site: { id: string; organizationId: string };
  users?: readonly string[] | undefined;
  teams?: readonly string[] | undefined;
  /** The role override to set (null: no access to the site); `remove` takes the overrides away instead. */
  role: Role | null;
  remove?: boolean;
  now?: Date;
}

/**
 * Sets (or removes) the role overrides of users and teams on a site, in the caller's transaction;
 * `site.permissions-updated` records what changed. Whether the principals belong to the organization is checked before.
 */
export async function sitePermissionWriter(em: EntityManager, props: SitePermissionWriterProps): Promise<void> {
  const now = props.now ?? new Date();
  const principals = principalsOf(props);
  let changed = 0;
  for (const principal of principals) {
    if (props.remove) changed += (await siteGrantRepository.delete(em, props.site.id, principal)) ? 1 : 0;
    else {
      await siteGrantRepository.upsert(em, props.site, principal, props.role, now);
      changed++;
    }
  }
  if (!changed) return;
  recordEvent(em, Events.sitePermissionsUpdated, {
    site: props.site.id,
    organization: props.site.organizationId,
    users: principals.filter((p) => p.kind === 'user').map((p) => p.id),
    teams: principals.filter((p) => p.kind === 'team').map((p) => p.id),
    role: props.remove ? null : props.role,
    removed: props.remove ?? false,
  });
}
