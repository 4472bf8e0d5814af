import type { Actor } from '@quire/contracts';
import { conflict, definePolicy, forbidden, organizationLevel } from '@quire/kit';

/** What the content service decides at the level of an organization (its own content rules; org-admin owns the rest). */
export const organizationContentPolicy = definePolicy({
  resource: 'Organization',
  role: (actor: Actor, org: { organizationId: string }) => organizationLevel(actor, org.organizationId),
  actions: {
    /** List its spaces and collections (what each member sees is decided per item). */
    list: 'guest',
    /** Search its content (what each member finds is decided per space). */
    search: 'guest',
    /** Create spaces and collections at the top level, or move content there. */
    createContent: 'create',
    /** Transfer content out of it or into it. */
    transferContent: 'admin',
    /** List the spaces another member can access. */
    viewMemberAccess: 'admin',
  },
  refusals: {
    createContent: 'Creating content at the top level needs the `create` role in the organization',
    viewMemberAccess: "Listing another member's spaces needs the admin role in the organization",
  },
});

/** Transfers move content between organizations: the caller must be an organization admin in both (409 to the same one). */
export function assertCanTransfer(actor: Actor, from: string, to: string, resource: 'space' | 'collection'): void {
  if (!organizationContentPolicy.allows(actor, { organizationId: from }, 'transferContent'))
    throw forbidden(`Transferring a ${resource} needs the admin role in its organization`);
  if (!organizationContentPolicy.allows(actor, { organizationId: to }, 'transferContent'))
    throw forbidden(`Transferring a ${resource} needs the admin role in the target organization`);
  if (from === to) throw conflict(`The ${resource} already belongs to this organization`);
}
