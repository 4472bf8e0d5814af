import { Resolver } from 'node:dns/promises';
import type { CustomHostnameStatus } from '@quire/contracts';

/** What the DNS check asks: the TXT records of a name (each record's strings, as `node:dns` answers). */
export interface TxtResolver {
  resolveTxt(name: string): Promise<string[][]>;
}

/** The system's resolver, each query bounded (5 s, two tries). */
const systemResolver = (): TxtResolver => new Resolver({ timeout: 5_000, tries: 2 });
let resolver: TxtResolver | undefined;

/** Replaces the resolver of the DNS checks (tests: a zone of their own); none restores the system's. */
export function setTxtResolver(next?: TxtResolver): void {
  resolver = next;
}

/** The name of the TXT record proving a custom hostname: `_quire-verification.<hostname>`. */
export const verificationName = (hostname: string) => `_quire-verification.${hostname}`;
/** The value it must hold: `quire-verification=<the site's hostname token>`. */
export const verificationValue = (token: string) => `quire-verification=${token}`;

/** Answers meaning the name has no such record (as opposed to a DNS failure, tried again later). */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/**
 * Checks the TXT record of a custom hostname against its token: `dns_passed` when one of the records holds
 * the expected value, `dns_wrong_cname` when records exist but none does, `dns_no_cname` when there is none, and
 * `internal_error` when the DNS could not answer (a timeout, a server failure).
 */
export async function checkHostnameDns(hostname: string, token: string): Promise<CustomHostnameStatus> {
  let records: string[][];
  try {
    records = await (resolver ??= systemResolver()).resolveTxt(verificationName(hostname));
  } catch (err) {
    return ABSENT.has((err as { code?: string }).code ?? '') ? 'dns_no_cname' : 'internal_error';
  }
  const values = records.map((chunks) => chunks.join(''));
  if (values.includes(verificationValue(token))) return 'dns_passed';
  return values.length ? 'dns_wrong_cname' : 'dns_no_cname';
}
