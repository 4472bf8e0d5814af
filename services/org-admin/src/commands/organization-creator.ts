import { Events } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Organization, type IOrganization } from '../modules/organizations/organization.entity.ts';
import { setMembership } from './member-adder.ts';

export interface CreateOrganizationProps {
  title: string;
  /** The user who becomes the organization's first admin. */
  adminUserId: string;
}

/** A new organization with its first admin; `organization.created` and `member.added` go to the outbox. Not flushed. */
export async function createOrganization(em: EntityManager, props: CreateOrganizationProps): Promise<IOrganization> {
  const now = new Date();
  const org = em.create(Organization, {
    id: newId(),
    title: props.title,
    createdAt: now,
    updatedAt: now,
    emailDomains: [],
    hostname: null,
    defaultRole: null,
    inviteLinks: false,
    type: 'business',
  });
  recordEvent(em, Events.organizationCreated, { organization: org.id, title: org.title, createdBy: props.adminUserId });
  await setMembership(em, { organizationId: org.id, userId: props.adminUserId, role: 'admin' });
  return org;
}

/** The actor as it is right after creating: admin of the new organization, whatever a cached actor says. */
export const asAdminOf = (userId: string, organizationId: string) => ({
  kind: 'user' as const,
  userId,
  memberships: [{ organization: organizationId, role: 'admin' as const, teams: [] }],
});
