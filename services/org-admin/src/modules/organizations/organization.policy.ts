import type { Actor, Membership, Organization } from '@quire/contracts';
import { membershipOf, notFound, forbidden, roleAtLeast } from '@quire/kit';

export type OrganizationPermissions = Organization['permissions'];

/** What the policy needs to know beyond the actor. */
export interface OrganizationAccessFacts {
  /** Whether the caller owns a team of the organization. */
  ownsTeam?: boolean;
}

/** What the actor may do with an organization; every `permissions` object comes from here. */
export function organizationPermissions(actor: Actor, organizationId: string, facts: OrganizationAccessFacts = {}): OrganizationPermissions {
  const m = membershipOf(actor, organizationId);
  const role = m?.role ?? null;
  const member = m !== undefined;
  const admin = roleAtLeast(role, 'admin');
  return {
    view: member,
    admin,
    ownTeam: member && facts.ownsTeam === true,
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

export function assertCanAdmin(actor: Actor, organizationId: string, message = 'Only organization admins can do this'): OrganizationPermissions {
  const p = assertCanView(actor, organizationId);
  if (!p.admin) throw forbidden(message);
  return p;
}

/** The caller's membership: 404 for anyone outside the organization. */
export function requireMembership(actor: Actor, organizationId: string): Membership {
  const m = membershipOf(actor, organizationId);
  if (!m) throw notFound('Organization');
  return m;
}

/** Members (not guests) may list the organization's members; guests get 403, outsiders 404. */
export function assertCanListMembers(actor: Actor, organizationId: string): void {
  if (!assertCanView(actor, organizationId).listMembers) throw forbidden('Guests cannot list the members of the organization');
}

/** Members (not guests) may list the organization's teams; guests get 403, outsiders 404. */
export function assertCanListTeams(actor: Actor, organizationId: string): void {
  if (!assertCanView(actor, organizationId).listTeams) throw forbidden('Guests cannot list the teams of the organization');
}
