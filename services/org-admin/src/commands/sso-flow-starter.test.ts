import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { SsoFlow } from '../modules/oidc/oidc-provider.entity.ts';
import { orgAdminService } from '../service.ts';
import { samlAssertionRecorder, ssoFlowClaimer, ssoFlowStarter } from './sso-flow-starter.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'sso-flow' });

const start = (state: string, ttlMs: number, now: Date) =>
  t.em().transactional((tx) =>
    ssoFlowStarter(tx, {
      flow: { kind: 'oidc', state, providerId: 'p1', codeVerifier: 'v', nonce: 'n', requestId: null },
      next: '/account',
      ttlMs,
      now,
    }),
  );
const claim = (state: string, now: Date) =>
  t.em().transactional((tx) => ssoFlowClaimer(tx, { hash: sha256Hex(state), now }));

describe('single sign-on flows', () => {
  it('stores only the hash of the state, claims a flow once (two callbacks racing sign in once), never expired', async () => {
    const now = new Date();
    await start('state-1', 60_000, now);
    const row = await t.em().findOneOrFail(SsoFlow, { hash: sha256Hex('state-1') });
    expect(row).toMatchObject({ kind: 'oidc', providerId: 'p1', next: '/account', usedAt: null });
    expect(row.expiresAt).toEqual(new Date(now.getTime() + 60_000));
    expect((await Promise.all([claim('state-1', now), claim('state-1', now)])).sort()).toEqual([false, true]);
    expect(await claim('state-1', now)).toBe(false);
    await start('state-2', 1000, now);
    expect(await claim('state-2', new Date(now.getTime() + 2000))).toBe(false);
    expect(await claim('never-started', now)).toBe(false);
    // Starting a flow drops the expired ones.
    await start('state-3', 60_000, new Date(now.getTime() + 5000));
    expect(await t.em().findOne(SsoFlow, { hash: sha256Hex('state-2') })).toBeNull();
  });

  it('records a SAML assertion once: the same assertion replayed is refused until it expires', async () => {
    const now = new Date();
    const record = (id: string, expiresAt: Date, at = now) =>
      t.em().transactional((tx) => samlAssertionRecorder(tx, { id, expiresAt, now: at }));
    expect(await record('p1:a1', new Date(now.getTime() + 60_000))).toBe(true);
    expect(await record('p1:a1', new Date(now.getTime() + 60_000))).toBe(false);
    expect(await record('p1:a2', new Date(now.getTime() + 1000))).toBe(true);
    // Once expired it is dropped (by the next recording): its own validity window refuses it by then anyway.
    expect(await record('p1:a3', new Date(now.getTime() + 60_000), new Date(now.getTime() + 2000))).toBe(true);
    expect(await record('p1:a2', new Date(now.getTime() + 61_000), new Date(now.getTime() + 2000))).toBe(true);
  });
});
