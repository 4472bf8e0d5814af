import { Resolver } from 'node:dns/promises';

/**
 * The TXT records at a DNS name, each record's strings joined; `[]` when the name has none (or does not exist).
 * Throws when the DNS could not answer (a timeout, a server failure): never a silent "no record".
 */
export type TxtResolver = (name: string) => Promise<string[]>;

/** Answers meaning the name has no such record, as opposed to a DNS failure. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/** The system's resolver, each query bounded (5 s a try, two tries). */
const systemResolver: TxtResolver = async (name) => {
  try {
    return (await new Resolver({ timeout: 5_000, tries: 2 }).resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    if (ABSENT.has((err as { code?: string }).code ?? '')) return [];
    throw err;
  }
};

let current: TxtResolver = systemResolver;

/** The TXT records at `name`, through the resolver in force (the system's, or a test's). */
export const resolveTxt: TxtResolver = (name) => current(name);

/** Test seam: answers TXT lookups with `resolver` (a zone of the test's own); `null` restores the system's. */
export function setTxtResolver(resolver: TxtResolver | null): void {
  current = resolver ?? systemResolver;
}

/**
 * The one DNS ownership proof of Quire (custom hostnames, e-mail domains): a TXT record at
 * `_quire-verification.<name>` holding `quire-verification=<token>`.
 */
export const proofRecordName = (name: string) => `_quire-verification.${name}`;
/** The value the proof record must hold for `token`. */
export const proofRecordValue = (token: string) => `quire-verification=${token}`;
