import type { CustomHostnameStatus } from '@quire/contracts';
import { proofRecordName, proofRecordValue, resolveTxt } from '@quire/kit';

/**
 * Checks the proof record of a custom hostname (kit `dns-proof.ts`: `_quire-verification.<hostname>` holding
 * `quire-verification=<token>`) against the site's token: `dns_passed` when one of its records holds the expected
 * value, `dns_wrong_cname` when records exist but none does, `dns_no_cname` when there is none, and
 * `internal_error` when the DNS could not answer (a timeout, a server failure).
 */
export async function checkHostnameDns(hostname: string, token: string): Promise<CustomHostnameStatus> {
  let values: string[];
  try {
    values = await resolveTxt(proofRecordName(hostname));
  } catch {
    return 'internal_error';
  }
  if (values.includes(proofRecordValue(token))) return 'dns_passed';
  return values.length ? 'dns_wrong_cname' : 'dns_no_cname';
}
