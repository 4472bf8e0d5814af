import { randomBytes } from 'node:crypto';
import type { CustomHostnameStatus } from '@quire/contracts';
import { conflict, type EntityManager } from '@quire/kit';
import type { ISite } from '../modules/sites/site.entity.ts';
import { siteRepository } from '../modules/sites/site.repository.ts';
import { siteChanged } from './structure-helpers.ts';

/**
 * A site's claim of a custom hostname (or its removal, `null`): a new claim starts unverified with a new token for
 * its TXT record, and is not served until a DNS check proves it. A hostname another site has proven is not claimed
 * (409); one only claimed elsewhere is (the organization that proves it first gets it).
 */
export async function hostnameClaimer(em: EntityManager, site: ISite, hostname: string | null): Promise<boolean> {
  if (hostname === site.hostname) return false;
  if (hostname && (await siteRepository.hostnameVerifiedElsewhere(em, hostname, site.id)))
    throw conflict(`hostname: another site already uses ${hostname}`);
  site.hostname = hostname;
  site.hostnameToken = hostname ? randomBytes(16).toString('hex') : null;
  site.hostnameVerified = false;
  site.hostnameStatus = null;
  site.hostnameCheckedAt = null;
  return true;
}

export interface HostnameCheckProps {
  site: ISite;
  /** The token the check was made for: a check of a hostname claimed again since is stale (409). */
  token: string;
  status: CustomHostnameStatus;
  now?: Date;
}

/**
 * Records a DNS check of a site's custom hostname: proven (`dns_passed`), it serves the site, unless another site
 * proved it first (409, the site stays unverified); not found or wrong, it stops serving; a DNS failure
 * (`internal_error`) changes nothing but the status. A change of what is served records `site.updated`
 * (`hostname`), which evicts the published site from every process's cache.
 */
export async function hostnameCheckRecorder(em: EntityManager, props: HostnameCheckProps): Promise<ISite> {
  const { site, status } = props;
  const now = props.now ?? new Date();
  if (!site.hostname || site.hostnameToken !== props.token)
    throw conflict('hostname: the site claimed another hostname during the check; check again');
  const verified = status === 'internal_error' ? site.hostnameVerified : status === 'dns_passed';
  if (verified && !site.hostnameVerified) {
    await siteRepository.lockHostname(em, site.hostname);
    if (await siteRepository.hostnameVerifiedElsewhere(em, site.hostname, site.id))
      throw conflict(`hostname: another site has proven ${site.hostname}`);
  }
  site.hostnameStatus = status;
  site.hostnameCheckedAt = now;
  em.persist(site);
  if (verified !== site.hostnameVerified) {
    site.hostnameVerified = verified;
    siteChanged(em, site, ['hostname'], now);
  }
  return site;
}
