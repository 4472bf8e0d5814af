import { Events, type Role } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Membership, type IMembership } from '../modules/organizations/organization.entity.ts';
import { User, type IUser } from '../modules/users/user.entity.ts';

/** A display name from an e-mail when none is given: `jane.doe@x.io` → `jane.doe`. */
export const nameFromEmail = (email: string) => email.split('@')[0] || email;

export interface UserEnsurerProps {
  email: string;
  name?: string | undefined;
}

/** The user with this e-mail (case-insensitive), created when new; a given name replaces the old one. */
export async function userEnsurer(em: EntityManager, props: UserEnsurerProps): Promise<IUser> {
  const email = props.email.trim().toLowerCase();
  const existing = await em.findOne(User, { email });
  if (existing) {
    if (props.name && existing.displayName !== props.name) existing.displayName = props.name;
    return existing;
  }
  return em.create(User, {
    id: newId(),
    email,
    displayName: props.name ?? nameFromEmail(email),
    photoURL: null,
    createdAt: new Date(),
  });
}

export interface MembershipSetterProps {
  organizationId: string;
  userId: string;
  role: Role | null;
}

/** Adds the user to the organization with `role`, or changes the role; the matching event goes to the outbox. */
export async function membershipSetter(em: EntityManager, props: MembershipSetterProps): Promise<IMembership> {
  const existing = await em.findOne(Membership, { organizationId: props.organizationId, userId: props.userId });
  if (!existing) {
    const created = em.create(Membership, {
      organizationId: props.organizationId,
      userId: props.userId,
      role: props.role,
      joinedAt: new Date(),
      lastSeenAt: null,
      sso: false,
    });
    recordEvent(em, Events.memberAdded, { organization: props.organizationId, user: props.userId, role: props.role });
    return created;
  }
  if (existing.role === props.role) return existing;
  const previousRole = existing.role ?? null;
  existing.role = props.role;
  recordEvent(em, Events.memberRoleChanged, {
    organization: props.organizationId,
    user: props.userId,
    role: props.role,
    previousRole,
  });
  return existing;
}
