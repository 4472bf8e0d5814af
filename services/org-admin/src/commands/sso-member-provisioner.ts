import type { Role } from '@quire/contracts';
import { invalid, type EntityManager } from '@quire/kit';
import { domainRepository } from '../modules/domains/domain.repository.ts';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { SsoIdentity } from '../modules/oidc/oidc-provider.entity.ts';
import { Team } from '../modules/teams/team.entity.ts';
import { User } from '../modules/users/user.entity.ts';
import { membershipSetter, userEnsurer } from './member-adder.ts';
import { teamMemberSetter } from './team-member-updater.ts';

export interface SsoMemberProvisionerProps {
  organizationId: string;
  providerId: string;
  /** The identity at the provider (OIDC `sub`, SAML NameID). */
  subject: string;
  /** Verified by the provider. */
  email: string;
  name: string | null;
  defaultRole: Role | null;
  defaultTeamId: string | null;
}

/** What a new member of an identity provider (OIDC or SAML) gets: null, nothing; undefined, unchanged. */
export interface SsoDefaults {
  /** A team of the provider's organization (400 otherwise). */
  defaultTeam?: string | null | undefined;
  defaultRole?: Role | null | undefined;
}

/** Sets a provider's defaults for the members it provisions (see `ssoMemberProvisioner`). */
export async function ssoDefaultsSetter(
  em: EntityManager,
  provider: { organizationId: string; defaultTeamId?: string | null; defaultRole?: Role | null },
  input: SsoDefaults,
): Promise<void> {
  if (input.defaultTeam !== undefined) {
    if (
      input.defaultTeam !== null &&
      !(await em.findOne(Team, { id: input.defaultTeam, organizationId: provider.organizationId }))
    )
      throw invalid('Invalid request: defaultTeam: no such team in the organization');
    provider.defaultTeamId = input.defaultTeam;
  }
  if (input.defaultRole !== undefined) provider.defaultRole = input.defaultRole;
}

/** Signed in as `userId`; or the identity names an existing account whose owner must confirm the link first. */
export type SsoProvisioning = { ok: true; userId: string } | { ok: false; reason: 'confirm'; userId: string };

/**
 * Just-in-time membership: the user of this identity — linked before, or a new user for an e-mail nobody has — made
 * a member of the provider's organization with its default role and team when not one yet. An identity is linked
 * to an existing account (the user with the verified e-mail) by itself only when the organization has proven it
 * owns the e-mail's domain (a verified DNS TXT record); otherwise the answer is `confirm` and nothing is written:
 * the account's owner, signed in, confirms the link (`ssoIdentityLinker`). One organization's identity provider
 * asserting someone's e-mail never signs anyone into that account.
 */
export async function ssoMemberProvisioner(
  em: EntityManager,
  props: SsoMemberProvisionerProps,
): Promise<SsoProvisioning> {
  const linked = await em.findOne(SsoIdentity, { providerId: props.providerId, subject: props.subject });
  if (linked) {
    await ssoMembershipEnsurer(em, { ...props, userId: linked.userId });
    return { ok: true, userId: linked.userId };
  }
  const existing = await em.findOne(User, { email: props.email.trim().toLowerCase() });
  if (existing && !(await domainRepository.ownsDomainOf(em, props.organizationId, existing.email)))
    return { ok: false, reason: 'confirm', userId: existing.id };
  const user = existing ?? (await userEnsurer(em, { email: props.email, ...(props.name ? { name: props.name } : {}) }));
  await ssoIdentityLinker(em, { ...props, userId: user.id });
  return { ok: true, userId: user.id };
}

/**
 * Links the identity (provider, subject) to the user and makes the user a member of the provider's organization
 * (its default role and team) when not one yet. Called for a new user, an organization's proven domain, or the
 * account's owner confirming the link.
 */
export async function ssoIdentityLinker(
  em: EntityManager,
  props: Omit<SsoMemberProvisionerProps, 'email' | 'name'> & { userId: string },
): Promise<void> {
  em.create(SsoIdentity, {
    providerId: props.providerId,
    subject: props.subject,
    userId: props.userId,
    createdAt: new Date(),
  });
  await ssoMembershipEnsurer(em, props);
}

/** The user becomes a member of the provider's organization (default role and team, marked SSO) when not one. */
async function ssoMembershipEnsurer(
  em: EntityManager,
  props: { organizationId: string; userId: string; defaultRole: Role | null; defaultTeamId: string | null },
): Promise<void> {
  const { organizationId, userId } = props;
  if (await em.findOne(Membership, { organizationId, userId })) return;
  const membership = await membershipSetter(em, { organizationId, userId, role: props.defaultRole });
  membership.sso = true;
  const team = props.defaultTeamId ? await em.findOne(Team, { id: props.defaultTeamId, organizationId }) : null;
  if (team) await teamMemberSetter(em, { team, userId });
}
