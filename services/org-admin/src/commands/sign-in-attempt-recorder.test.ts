import { describe, expect, it } from 'vitest';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { SignInAttempt } from '../modules/sign-in/sign-in.entity.ts';
import { orgAdminService } from '../service.ts';
import { signInAttemptRecorder, WINDOW_MS } from './sign-in-attempt-recorder.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'throttle' });

const record = (keys: { key: string; limit: number }[], now: Date) =>
  t.em().transactional((tx) => signInAttemptRecorder(tx, { keys, now }));

describe('the sign-in throttle', () => {
  it('counts each key up to its limit in 15 minutes, counts nothing when refused, forgets after the window', async () => {
    const t0 = new Date('2030-01-01T00:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const from = (address: string) => [
      { key: `address:${address}`, limit: 2 },
      { key: 'account:ann@acme.io', limit: 3 },
    ];
    expect(await record(from('1.2.3.4'), t0)).toBe(true);
    expect(await record(from('1.2.3.4'), at(1000))).toBe(true);
    // The address reached its limit: refused, and the account key is not counted either…
    expect(await record(from('1.2.3.4'), at(2000))).toBe(false);
    // …so the account takes one more attempt, from another address, then refuses the next.
    expect(await record(from('5.6.7.8'), at(3000))).toBe(true);
    expect(await record(from('9.9.9.9'), at(4000))).toBe(false);
    // 15 minutes after the first two, their address may ask again; the attempts older than the window are dropped.
    expect(await record(from('1.2.3.4'), at(WINDOW_MS + 2000))).toBe(true);
    expect(await t.em().count(SignInAttempt, { at: { $lt: at(2000) } })).toBe(0);
    expect(await t.em().count(SignInAttempt, { key: 'account:ann@acme.io' })).toBe(2);
  });
});
