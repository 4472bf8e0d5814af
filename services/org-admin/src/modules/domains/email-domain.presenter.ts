import type { EmailDomain } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import { verificationValue } from '../../commands/email-domain-writer.ts';
import type { IOrganizationDomain } from './domain.entity.ts';
import { verificationRecordName as verificationName } from './email-domain.loader.ts';

export function presentEmailDomain(ctx: { urls: PublicUrls }, d: IOrganizationDomain): EmailDomain {
  return {
    object: 'email-domain',
    domain: d.domain,
    verified: d.verifiedAt !== null && d.verifiedAt !== undefined,
    createdAt: d.createdAt.toISOString(),
    ...(d.checkedAt ? { checkedAt: d.checkedAt.toISOString() } : {}),
    ...(d.verifiedAt ? { verifiedAt: d.verifiedAt.toISOString() } : {}),
    record: { type: 'TXT', name: verificationName(d.domain), value: verificationValue(d.token) },
    urls: { location: ctx.urls.api(`/orgs/${d.organizationId}/email-domains/${d.domain}`) },
  };
}
