import { Events, type MergeRulesStandaloneConfiguration, type Role } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import type { IOrganization } from '../modules/organizations/organization.entity.ts';

export interface OrganizationUpdaterProps {
  organization: IOrganization;
  title?: string | undefined;
  emailDomains?: string[] | undefined;
  hostname?: string | undefined;
  defaultRole?: Role | null | undefined;
  inviteLinks?: boolean | undefined;
  mergeRules?: MergeRulesStandaloneConfiguration | undefined;
}

/** Applies the given settings (e-mail domains lower-cased, without repeats). A taken hostname is a 409 at commit. */
export async function organizationUpdater(em: EntityManager, props: OrganizationUpdaterProps): Promise<IOrganization> {
  const org = props.organization;
  if (props.title !== undefined) org.title = props.title;
  if (props.emailDomains !== undefined) org.emailDomains = [...new Set(props.emailDomains.map((d) => d.toLowerCase()))];
  if (props.hostname !== undefined) org.hostname = props.hostname;
  if (props.defaultRole !== undefined) org.defaultRole = props.defaultRole;
  if (props.inviteLinks !== undefined) org.inviteLinks = props.inviteLinks;
  // Content evaluates merges against its copy of the rules, kept from this event.
  if (props.mergeRules !== undefined && JSON.stringify(props.mergeRules) !== JSON.stringify(org.mergeRules)) {
    org.mergeRules = props.mergeRules;
    recordEvent(em, Events.organizationMergeRulesChanged, { organization: org.id, mergeRules: props.mergeRules });
  }
  org.updatedAt = new Date();
  em.persist(org);
  return org;
}
