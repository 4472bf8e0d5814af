import type { Actor, Organization } from '@quire/contracts';
import { membershipOf, notFound, forbidden, roleAtLeast } from '@quire/kit';

export type OrganizationPermissions = Organization['permissions'];

/** What the actor may do with an organization; every `permissions` object comes from here. */
export function organizationPermissions(actor: Actor, organizationId: string): OrganizationPermissions {
  const m = membershipOf(actor, organizationId);
  const role = m?.role ?? null;
  const member = m !== undefined;
  const admin = roleAtLeast(role, 'admin');
  return {
    view: member,
    admin,
    ownTeam: false,
    createContent: roleAtLeast(role, 'create'),
    createOpenAPISpec: roleAtLeast(role, 'create'),
    ingestConversations: admin,
    viewBilling: admin,
    listMembers: role !== null && member,
    listTeams: role !== null && member,
    listIntegrations: role !== null && member,
  };
}

/** 404 unless the actor belongs to the organization (existence is not revealed). */
export function assertCanView(actor: Actor, organizationId: string): OrganizationPermissions {
  const p = organizationPermissions(actor, organizationId);
  if (!p.view) throw notFound('Organization');
  return p;
}

export function assertCanAdmin(actor: Actor, organizationId: string): OrganizationPermissions {
  const p = assertCanView(actor, organizationId);
  if (!p.admin) throw forbidden('Only organization admins can do this');
  return p;
}
