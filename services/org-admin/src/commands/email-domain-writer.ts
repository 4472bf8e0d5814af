import { conflict, proofRecordValue, type EntityManager } from '@quire/kit';
import { OrganizationDomain, type IOrganizationDomain } from '../modules/domains/domain.entity.ts';
import { domainRepository } from '../modules/domains/domain.repository.ts';
import { randomToken } from '../modules/sessions/sessions.ts';

/** Most e-mail domains one organization may claim. */
export const MAX_EMAIL_DOMAINS = 50;

export interface EmailDomainClaimerProps {
  organizationId: string;
  domain: string;
  /** The TXT records found at `_quire-verification.<domain>` just now. */
  records: string[];
  now?: Date;
}

/**
 * Claims an e-mail domain for the organization (a new random token the first time; 409 past 50 domains) and records
 * the check just made: verified while the TXT record holds the claim's token, no longer verified once it does not.
 */
export async function emailDomainClaimer(
  em: EntityManager,
  props: EmailDomainClaimerProps,
): Promise<IOrganizationDomain> {
  const { organizationId, domain, now = new Date() } = props;
  let row = await domainRepository.find(em, organizationId, domain);
  if (!row) {
    if ((await domainRepository.count(em, organizationId)) >= MAX_EMAIL_DOMAINS)
      throw conflict(`An organization claims at most ${MAX_EMAIL_DOMAINS} e-mail domains`);
    row = em.create(OrganizationDomain, {
      organizationId,
      domain,
      token: randomToken(),
      createdAt: now,
      checkedAt: null,
      verifiedAt: null,
    });
  }
  const found = props.records.some((r) => r.trim() === proofRecordValue(row.token));
  row.checkedAt = now;
  row.verifiedAt = found ? (row.verifiedAt ?? now) : null;
  return row;
}

/** Gives up the claim: the organization's providers need their owners' confirmation again for that domain. */
export function emailDomainDeleter(em: EntityManager, { domain }: { domain: IOrganizationDomain }): void {
  em.remove(domain);
}
