import type { Role } from '@quire/contracts';
import { invalid, type EntityManager } from '@quire/kit';
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
  /** The user of the browser's session, if signed in: proves owning an existing account. */
  sessionUserId: string | null;
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

export type SsoProvisioning = { ok: true; userId: string } | { ok: false; reason: 'link-needed' };

/**
 * Just-in-time membership: the user of this identity (linked before, or the user with the verified e-mail, or a
 * new user), made a member of the provider's organization with its default role and team when not one yet.
 * An existing account that belongs to other organizations is linked only from its own session (signed in by
 * e-mail link first): another organization's identity provider cannot take it over by asserting its e-mail.
 */
export async function ssoMemberProvisioner(
  em: EntityManager,
  props: SsoMemberProvisionerProps,
): Promise<SsoProvisioning> {
  const linked = await em.findOne(SsoIdentity, { providerId: props.providerId, subject: props.subject });
  let userId = linked?.userId;
  if (!userId) {
    const existing = await em.findOne(User, { email: props.email });
    if (existing && existing.id !== props.sessionUserId) {
      const elsewhere = await em.count(Membership, {
        userId: existing.id,
        organizationId: { $ne: props.organizationId },
      });
      if (elsewhere > 0) return { ok: false, reason: 'link-needed' };
    }
    const user =
      existing ?? (await userEnsurer(em, { email: props.email, ...(props.name ? { name: props.name } : {}) }));
    em.create(SsoIdentity, {
      providerId: props.providerId,
      subject: props.subject,
      userId: user.id,
      createdAt: new Date(),
    });
    userId = user.id;
  }
  if (!(await em.findOne(Membership, { organizationId: props.organizationId, userId }))) {
    const membership = await membershipSetter(em, {
      organizationId: props.organizationId,
      userId,
      role: props.defaultRole,
    });
    membership.sso = true;
    const team = props.defaultTeamId
      ? await em.findOne(Team, { id: props.defaultTeamId, organizationId: props.organizationId })
      : null;
    if (team) await teamMemberSetter(em, { team, userId });
  }
  return { ok: true, userId };
}
