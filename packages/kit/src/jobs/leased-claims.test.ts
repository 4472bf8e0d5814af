import { describe, expect, it } from 'vitest';
import { metrics } from '../metrics.ts';
import { holdLease, runLeasedClaims } from './leased-claims.ts';

interface Claim {
  id: string;
}

/** A queue of items and a log that keeps what was said (warn lines). */
function queue(ids: string[]) {
  const waiting = [...ids];
  const warned: { obj: Record<string, unknown>; msg: string }[] = [];
  return {
    waiting,
    warned,
    log: { warn: (obj: object, msg: string) => void warned.push({ obj: obj as Record<string, unknown>, msg }) },
    claim: async (): Promise<Claim | null> => {
      const id = waiting.shift();
      return id === undefined ? null : { id };
    },
  };
}

const renewalFailures = async (job: string) =>
  (await metrics.jobLeaseRenewalFailures.get()).values.find((v) => v.labels.job === job)?.value ?? 0;

describe('runLeasedClaims', () => {
  it('works the claims one after another, at most `max`, and returns them', async () => {
    const q = queue(['a', 'b', 'c']);
    const worked: string[] = [];
    const done = await runLeasedClaims({
      name: 'test-order',
      log: q.log,
      leaseMs: 60_000,
      max: 2,
      claim: q.claim,
      renew: async () => {},
      work: async (c) => void worked.push(c.id),
    });
    expect(done.map((c) => c.id)).toEqual(['a', 'b']);
    expect(worked).toEqual(['a', 'b']);
    expect(q.waiting).toEqual(['c']);
  });

  it('stops when nothing waits', async () => {
    const q = queue([]);
    const done = await runLeasedClaims({
      name: 'test-empty',
      log: q.log,
      leaseMs: 60_000,
      max: 5,
      claim: q.claim,
      renew: async () => {},
      work: async () => {},
    });
    expect(done).toEqual([]);
  });

  it('renews the lease of the claim being worked', async () => {
    const q = queue(['a']);
    const renewed: string[] = [];
    let renewedTwice!: () => void;
    const twice = new Promise<void>((resolve) => (renewedTwice = resolve));
    await runLeasedClaims({
      name: 'test-renew',
      log: q.log,
      leaseMs: 150,
      max: 5,
      claim: q.claim,
      renew: async (c) => {
        renewed.push(c.id);
        if (renewed.length === 2) renewedTwice();
      },
      work: () => twice,
    });
    expect(renewed.slice(0, 2)).toEqual(['a', 'a']);
    const after = renewed.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(renewed.length).toBe(after); // no renewal once the work is over
  });

  it('throws what the work throws, leaving the rest waiting', async () => {
    const q = queue(['a', 'b']);
    await expect(
      runLeasedClaims({
        name: 'test-throw',
        log: q.log,
        leaseMs: 60_000,
        max: 5,
        claim: q.claim,
        renew: async () => {},
        work: async () => {
          throw new Error('database down');
        },
      }),
    ).rejects.toThrow('database down');
    expect(q.waiting).toEqual(['b']);
  });
});

describe('holdLease', () => {
  it('logs and counts a renewal that fails, and goes on working', async () => {
    const q = queue([]);
    const before = await renewalFailures('test-lease');
    let failures = 0;
    let failedTwice!: () => void;
    const twice = new Promise<void>((resolve) => (failedTwice = resolve));
    const result = await holdLease(
      {
        name: 'test-lease',
        log: q.log,
        leaseMs: 150,
        renew: async () => {
          if (++failures === 2) setImmediate(failedTwice);
          throw new Error('connection reset');
        },
        describe: (c: Claim) => ({ item: c.id }),
      },
      { id: 'x' },
      async () => {
        await twice;
        return 'rendered';
      },
    );
    expect(result).toBe('rendered');
    expect(q.warned.length).toBeGreaterThanOrEqual(2);
    expect(q.warned[0]).toMatchObject({ msg: 'lease not renewed', obj: { job: 'test-lease', item: 'x' } });
    expect((q.warned[0]!.obj.err as Error).message).toBe('connection reset');
    expect((await renewalFailures('test-lease')) - before).toBeGreaterThanOrEqual(2);
  });
});
