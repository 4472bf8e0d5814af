import { DomainError, type EntityManager, type JobDefinition, type Logger, type ServiceDeps } from '@quire/kit';
import { hostnameCheckRecorder } from '../../commands/hostname-commands.ts';
import type { SitesConfig } from '../../env.ts';
import { checkHostnameDns } from './hostname-dns.ts';
import { siteRepository } from './site.repository.ts';

export const HOSTNAME_RECHECK_JOB = 'sites-recheck-hostnames';
const PAGE = 100;

export interface RecheckCounts {
  checked: number;
  /** Hostnames that serve their site from this pass on. */
  verified: number;
  /** Hostnames that stopped serving (their TXT record is gone or changed). */
  lapsed: number;
}

/**
 * One pass over every site with a custom hostname: its TXT record asked (outside any transaction), then the
 * outcome recorded under the site's row lock, one site per transaction. A proof another site made first, or a
 * hostname claimed again meanwhile, leaves the site as it is (logged).
 */
export async function recheckHostnames(em: EntityManager, log: Logger): Promise<RecheckCounts> {
  const counts: RecheckCounts = { checked: 0, verified: 0, lapsed: 0 };
  let after = '';
  for (;;) {
    const sites = await siteRepository.withHostnameAfter(em.fork(), after, PAGE);
    for (const found of sites) {
      const token = found.hostnameToken ?? '';
      const status = await checkHostnameDns(found.hostname!, token);
      try {
        const before = found.hostnameVerified;
        const site = await em.fork().transactional(async (tx) => {
          await siteRepository.lock(tx, found.id);
          const current = await siteRepository.findIn(tx, found.organizationId, found.id);
          return current && hostnameCheckRecorder(tx, { site: current, token, status });
        });
        counts.checked++;
        if (site?.hostnameVerified && !before) counts.verified++;
        if (site && !site.hostnameVerified && before) counts.lapsed++;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        log.info({ site: found.id, hostname: found.hostname, reason: err.message }, 'custom hostname not verified');
      }
    }
    if (sites.length < PAGE) return counts;
    after = sites[sites.length - 1]!.id;
  }
}

/** At start and every `QUIRE_HOSTNAME_RECHECK_EVERY_MS`: every custom hostname's DNS checked again. */
export function hostnameRecheckJob(deps: ServiceDeps<SitesConfig>): JobDefinition {
  return {
    name: HOSTNAME_RECHECK_JOB,
    everyMs: deps.config.QUIRE_HOSTNAME_RECHECK_EVERY_MS,
    maxAttempts: 3,
    timeoutMs: 10 * 60_000,
    run: async () => {
      const counts = await recheckHostnames(deps.orm.em.fork(), deps.log);
      if (counts.verified || counts.lapsed) deps.log.info(counts, 'custom hostnames rechecked');
    },
  };
}
