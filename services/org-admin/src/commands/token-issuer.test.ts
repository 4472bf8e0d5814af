import { describe, expect, it } from 'vitest';
import { sha256Hex, type EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { ApiToken } from '../modules/tokens/api-token.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import { tokenIssuer, tokenRevoker, tokenUseRecorder } from './token-issuer.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'token-issuer' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const stored = (id: string) => t.em().fork().findOneOrFail(ApiToken, { id });
const eventsOf = async (type: string, token: string) =>
  (await t.outboxEvents(type)).map((e) => e.data as Record<string, unknown>).filter((d) => d.token === token);

describe('tokenIssuer and tokenRevoker', () => {
  it('issues a secret once, storing only its hash, and tells the gateways its key; revoking tells them too', async () => {
    const { admin } = await seedOrganization(t, {});
    const { token, record } = await inTx(async (tx) => tokenIssuer(tx, { userId: admin.id, label: 'CI' }));
    expect(token).toMatch(/^quire_[A-Za-z0-9_-]{43}$/);
    const row = await stored(record.id);
    expect(row).toMatchObject({
      userId: admin.id,
      label: 'CI',
      hash: sha256Hex(token),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await t.em().count(ApiToken, { hash: token })).toBe(0);
    expect(await eventsOf('token.issued', record.id)).toEqual([
      { user: admin.id, token: record.id, key: sha256Hex(token).slice(0, 16) },
    ]);
    const second = await inTx(async (tx) => tokenIssuer(tx, { userId: admin.id, label: 'CI' }));
    expect(second.token).not.toBe(token);

    await inTx(async (tx) => tokenRevoker(tx, { token: await tx.findOneOrFail(ApiToken, { id: record.id }) }));
    expect((await stored(record.id)).revokedAt).toBeInstanceOf(Date);
    expect(await eventsOf('token.revoked', record.id)).toEqual([{ user: admin.id, token: record.id }]);
    expect((await stored(second.record.id)).revokedAt).toBeNull();
  });
});

describe('tokenUseRecorder', () => {
  it('records a use to the minute: a use within a minute of the last is not written', async () => {
    const { admin } = await seedOrganization(t, {});
    const { record } = await inTx(async (tx) => tokenIssuer(tx, { userId: admin.id, label: 'Use' }));
    const use = (now: Date) =>
      inTx(async (tx) => tokenUseRecorder(tx, { token: await tx.findOneOrFail(ApiToken, { id: record.id }), now }));
    const t0 = new Date('2031-08-01T10:00:00Z');
    await use(t0);
    expect((await stored(record.id)).lastUsedAt).toEqual(t0);
    await use(new Date(t0.getTime() + 60_000));
    expect((await stored(record.id)).lastUsedAt).toEqual(t0);
    const later = new Date(t0.getTime() + 60_001);
    await use(later);
    expect((await stored(record.id)).lastUsedAt).toEqual(later);
    // No API token (the instance admin's, a session): nothing to record.
    await inTx(async (tx) => tokenUseRecorder(tx, { token: undefined, now: later }));
  });
});
