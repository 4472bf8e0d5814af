import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel, roleAtLeast, type AccessLevel } from '@quire/kit';
import { installableOrganizations } from '../organizations/organization.policy.ts';

export interface InstallationFacts {
  /** The organization the integration is installed in. */
  organizationId: string;
  /** The organization owning the integration. */
  ownerId: string;
}

/**
 * Installations: the caller's level is its role in the organization the integration is installed in, raised
 * to `admin` for the admins of the integration's owner (the developers of the integration). Reading or
 * changing an installation (its configuration may hold private settings) is an admin matter.
 */
export const installationPolicy = definePolicy({
  resource: 'Installation',
  role: (actor: Actor, facts: InstallationFacts): AccessLevel | null =>
    roleAtLeast(organizationLevel(actor, facts.ownerId), 'admin')
      ? 'admin'
      : organizationLevel(actor, facts.organizationId),
  actions: { view: 'admin', update: 'admin', delete: 'admin' },
  describe: {
    view: 'Viewing the installation',
    update: 'Changing the installation',
    delete: 'Uninstalling the integration',
  },
});
export type InstallationAction = keyof typeof installationPolicy.actions;

/** Which installations of an integration a caller lists: all of them (owner admins), those of the organizations it administers, or none. */
export type InstallationScope = { kind: 'all' } | { kind: 'in'; organizations: string[] };

export function listableInstallations(actor: Actor, ownerId: string): InstallationScope {
  if (installationPolicy.allows(actor, { organizationId: '', ownerId }, 'view')) return { kind: 'all' };
  return { kind: 'in', organizations: installableOrganizations(actor) };
}
