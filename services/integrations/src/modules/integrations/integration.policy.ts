import type { Actor, IntegrationVisibility } from '@quire/contracts';
import { definePolicy, organizationLevel, type AccessLevel } from '@quire/kit';
import { installableOrganizations } from '../organizations/organization.policy.ts';

export interface IntegrationFacts {
  ownerId: string;
  visibility: IntegrationVisibility;
}

/**
 * Integrations: members of the owner organization have their organization role on it; everyone else sees a
 * public or unlisted integration as a `guest` (view, install where they are admin) and a private one not at
 * all (404). Republishing and unpublishing need the owner's `admin` role.
 */
export const integrationPolicy = definePolicy({
  resource: 'Integration',
  role: (actor: Actor, facts: IntegrationFacts): AccessLevel | null =>
    organizationLevel(actor, facts.ownerId) ?? (facts.visibility === 'private' ? null : 'guest'),
  actions: {
    view: 'guest',
    /** POST a new version (the name is the owner's). */
    publish: 'admin',
    unpublish: 'admin',
    /** Install it, list or read installations (each installation has its own policy). */
    useInstallations: 'guest',
  },
  describe: {
    view: 'Viewing the integration',
    publish: 'Republishing the integration',
    unpublish: 'Unpublishing the integration',
    useInstallations: 'Using the installations of the integration',
  },
  permissions: { admin: 'admin' },
});
export type IntegrationAction = keyof typeof integrationPolicy.actions;

/** The `permissions` of an integration as the caller sees it: `admin` by its level, `install` when it administers an organization. */
export function integrationPermissions(actor: Actor, facts: IntegrationFacts): { admin: boolean; install: boolean } {
  const level = integrationPolicy.role(actor, facts);
  return {
    ...integrationPolicy.permissions(level),
    install: level !== null && installableOrganizations(actor).length > 0,
  };
}

/** Whose integrations a caller sees in lists: public ones, and every one of the organizations it belongs to. */
export const listableOwners = (actor: Actor): string[] =>
  actor.kind === 'user' ? actor.memberships.map((m) => m.organization) : [];
