import type { EmailDomain } from '@quire/contracts';
import { proofRecordName, proofRecordValue, type PublicUrls } from '@quire/kit';
import type { IOrganizationDomain } from './domain.entity.ts';

export function presentEmailDomain(ctx: { urls: PublicUrls }, d: IOrganizationDomain): EmailDomain {
  return {
    object: 'email-domain',
    domain: d.domain,
    verified: d.verifiedAt !== null && d.verifiedAt !== undefined,
    createdAt: d.createdAt.toISOString(),
    ...(d.checkedAt ? { checkedAt: d.checkedAt.toISOString() } : {}),
    ...(d.verifiedAt ? { verifiedAt: d.verifiedAt.toISOString() } : {}),
    record: { type: 'TXT', name: proofRecordName(d.domain), value: proofRecordValue(d.token) },
    urls: { location: ctx.urls.api(`/orgs/${d.organizationId}/email-domains/${d.domain}`) },
  };
}
