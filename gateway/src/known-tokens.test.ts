import { describe, expect, it } from 'vitest';
import type { ServiceClients } from '@quire/kit';
import { sha256Hex } from '@quire/kit';
import { testLogger } from '@quire/kit/testing';
import { KnownTokens, tokenKeyOf } from './known-tokens.ts';

/** Org-admin's `auth.listTokenKeys` over `hashes` (as they are when asked), `limit` a page; `during` runs while a page is asked. */
function orgAdmin(hashes: string[], during?: () => void) {
  const asked: (string | undefined)[] = [];
  const clients = {
    asService: async (_op: unknown, input: { after?: string; limit: number }) => {
      asked.push(input.after);
      during?.();
      const rest = [...hashes].sort().filter((h) => input.after === undefined || h > input.after);
      const page = rest.slice(0, 2);
      return { keys: page.map(tokenKeyOf), next: page.length === 2 ? page[1]! : null };
    },
  } as unknown as ServiceClients;
  return { clients, asked };
}

const hash = (token: string) => sha256Hex(token);

describe('known tokens', () => {
  it('knows nothing before its first load, then every issued token, a page at a time', async () => {
    const issued = ['quire_a', 'quire_b', 'quire_c', 'quire_d', 'quire_e'];
    const { clients, asked } = orgAdmin(issued.map(hash));
    const known = new KnownTokens(clients, testLogger());
    expect(known.has(hash('quire_a'))).toBeUndefined();
    await known.load();
    expect(issued.map((t) => known.has(hash(t)))).toEqual([true, true, true, true, true]);
    expect(known.has(hash('quire_forged'))).toBe(false);
    expect(asked.length).toBe(3);
  });

  it('keeps a token learned from an event during a load, and drops a revoked one', async () => {
    let known: KnownTokens | undefined;
    const { clients } = orgAdmin([hash('quire_old')], () => known?.add(tokenKeyOf(hash('quire_new'))));
    known = new KnownTokens(clients, testLogger());
    await known.load();
    expect([known.has(hash('quire_old')), known.has(hash('quire_new'))]).toEqual([true, true]);
    known.forget(hash('quire_old'));
    expect(known.has(hash('quire_old'))).toBe(false);
  });

  it('learns a token it never heard of by loading again on a miss, at most once per 15 s for every caller', async () => {
    const issued = [hash('quire_a')];
    const { clients, asked } = orgAdmin(issued);
    const known = new KnownTokens(clients, testLogger());
    const t0 = Date.now();
    await known.load();
    issued.push(hash('quire_elsewhere')); // issued where no event reached this gateway
    // within 15 s of the load, a miss is a miss
    expect(await known.hasFresh(hash('quire_elsewhere'), t0 + 1_000)).toBe(false);
    const loadsOf = () => asked.filter((after) => after === undefined).length; // a load's first page
    const loads = loadsOf();
    // later, one miss loads again (forged tokens in the same moment share that load) and finds it
    const answers = await Promise.all([
      known.hasFresh(hash('quire_elsewhere'), t0 + 16_000),
      known.hasFresh(hash('quire_forged'), t0 + 16_000),
    ]);
    expect(answers).toEqual([true, false]);
    expect(loadsOf()).toBe(loads + 1);
    // and a forged token right after costs nothing
    expect(await known.hasFresh(hash('quire_forged2'))).toBe(false);
    expect(loadsOf()).toBe(loads + 1);
  });
});
