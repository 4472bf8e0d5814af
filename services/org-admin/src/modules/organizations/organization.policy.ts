import type { Actor, Organization } from '@quire/contracts';
import { definePolicy, organizationLevel, type AccessLevel } from '@quire/kit';

export type OrganizationPermissions = Organization['permissions'];
export interface OrganizationAccessFacts {
  organizationId: string;
}

/**
 * What a caller may do in an organization: its level is its membership role (`guest` for a member without
 * one; outsiders do not see the organization, 404). Members, teams, SAML providers are managed here.
 */
export const organizationPolicy = definePolicy({
  resource: 'Organization',
  role: (actor: Actor, org: OrganizationAccessFacts) => organizationLevel(actor, org.organizationId),
  actions: {
    view: 'guest',
    update: 'admin',
    listMembers: 'read',
    listTeams: 'read',
    manageMembers: 'admin',
    manageTeams: 'admin',
    manageSaml: 'admin',
    /** The SSO login options (members, guests included). */
    listSso: 'guest',
  },
  refusals: {
    update: 'Only organization admins can do this',
    listMembers: 'Guests cannot list the members of the organization',
    listTeams: 'Guests cannot list the teams of the organization',
    manageMembers: 'Only organization admins can manage members',
    manageTeams: 'Only organization admins can create, rename or delete teams',
    manageSaml: 'Only organization admins can manage SAML providers',
  },
  permissions: {
    view: 'guest',
    admin: 'admin',
    createContent: 'create',
    createOpenAPISpec: 'create',
    ingestConversations: 'admin',
    viewBilling: 'admin',
    listMembers: 'read',
    listTeams: 'read',
    listIntegrations: 'read',
  },
});

/** The organization's `permissions` for the caller; `ownsTeam`: whether the caller owns one of its teams. */
export function callerOrganizationPermissions(
  actor: Actor,
  organizationId: string,
  ownsTeam: boolean,
): OrganizationPermissions {
  return organizationPermissions(organizationPolicy.role(actor, { organizationId }), ownsTeam);
}

/** The organization's `permissions` for a caller at `level`; `ownTeam` says whether the caller owns one of its teams. */
export function organizationPermissions(level: AccessLevel | null, ownsTeam: boolean): OrganizationPermissions {
  return { ...organizationPolicy.permissions(level), ownTeam: level !== null && ownsTeam };
}
