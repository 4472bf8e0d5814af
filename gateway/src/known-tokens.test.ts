import { describe, expect, it } from 'vitest';
import type { ServiceClients } from '@quire/kit';
import { sha256Hex } from '@quire/kit';
import { testLogger } from '@quire/kit/testing';
import { KnownTokens, tokenKeyOf } from './known-tokens.ts';

/** Org-admin's `auth.listTokenKeys` over `hashes` (sorted), `limit` a page; `during` runs while a page is asked. */
function orgAdmin(hashes: string[], during?: () => void) {
  const sorted = [...hashes].sort();
  const asked: (string | undefined)[] = [];
  const clients = {
    asService: async (_op: unknown, input: { after?: string; limit: number }) => {
      asked.push(input.after);
      during?.();
      const rest = sorted.filter((h) => input.after === undefined || h > input.after);
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
});
