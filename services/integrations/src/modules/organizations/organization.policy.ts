import type { Actor } from '@quire/contracts';
import { definePolicy, organizationLevel } from '@quire/kit';

/** What a caller may do with integrations in an organization, from its membership (the signed actor carries it). */
export const organizationIntegrationsPolicy = definePolicy({
  resource: 'Organization',
  role: (actor: Actor, facts: { organizationId: string }) => organizationLevel(actor, facts.organizationId),
  actions: {
    /** Publish (or republish, or unpublish) an integration owned by the organization. */
    publish: 'admin',
    /** Install an integration in the organization. */
    install: 'admin',
    /** List the integrations installed in the organization (its members, guests included). */
    listInstalled: 'guest',
  },
  describe: {
    listInstalled: 'Listing the integrations installed in the organization',
    publish: 'Publishing an integration for the organization',
    install: 'Installing an integration in the organization',
  },
});

/** The organizations where the caller may install integrations (those it administers). */
export const installableOrganizations = (actor: Actor): string[] =>
  actor.kind === 'user'
    ? actor.memberships
        .map((m) => m.organization)
        .filter((organizationId) => organizationIntegrationsPolicy.allows(actor, { organizationId }, 'install'))
    : [];
