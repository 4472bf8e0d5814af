import type { CustomHostname } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { ISite } from './site.entity.ts';
import { proofRecordName, proofRecordValue } from '@quire/kit';

/** GitBook's `CustomHostname` of a site's claim, with the TXT record that proves it (Quire's `verification`). */
export function presentCustomHostname(ctx: { urls: PublicUrls }, site: ISite): CustomHostname {
  const hostname = site.hostname!;
  return {
    object: 'custom-hostname',
    hostname,
    target: { type: 'site', site: site.id },
    isActive: site.hostnameVerified,
    status: site.hostnameStatus ?? 'dns_no_cname',
    verification: {
      type: 'TXT',
      name: proofRecordName(hostname),
      value: proofRecordValue(site.hostnameToken ?? ''),
    },
    ...(site.hostnameCheckedAt ? { checkedAt: site.hostnameCheckedAt.toISOString() } : {}),
    urls: { location: ctx.urls.api(`/custom-hostnames/${hostname}`) },
  };
}
