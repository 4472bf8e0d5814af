import { Resolver } from 'node:dns/promises';

/** The TXT records at a DNS name, each record's strings joined; [] when there are none (or the name does not exist). */
export type TxtResolver = (name: string) => Promise<string[]>;

/** The system's resolver, 3 s a try, 2 tries. */
const systemResolver: TxtResolver = async (name) => {
  try {
    return (await new Resolver({ timeout: 3000, tries: 2 }).resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw err;
  }
};

let current: TxtResolver = systemResolver;

/** The resolver the domain checks use. */
export const resolveTxt: TxtResolver = (name) => current(name);

/** Test seam: answers TXT lookups with `resolver` (null: the system's resolver again). */
export function useTxtResolver(resolver: TxtResolver | null): void {
  current = resolver ?? systemResolver;
}
