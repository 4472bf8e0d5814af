import { Events } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Organization, type IOrganization } from '../modules/organizations/organization.entity.ts';
import { membershipSetter } from './member-adder.ts';

export interface OrganizationCreatorProps {
  title: string;
  /** The user who becomes the organization's first admin. */
  adminUserId: string;
}

/** A new organization with its first admin; `organization.created` and `member.added` go to the outbox. */
export async function organizationCreator(em: EntityManager, props: OrganizationCreatorProps): Promise<IOrganization> {
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
  await membershipSetter(em, { organizationId: org.id, userId: props.adminUserId, role: 'admin' });
  return org;
}
