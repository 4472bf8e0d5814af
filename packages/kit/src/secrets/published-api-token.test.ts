import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { signApiToken, TTL_SECONDS, verifyApiToken, WINDOW_SECONDS } from './published-api-token.ts';

const SECRET = 's'.repeat(40);
const ISSUER = 'http://quire.test';
const claims = {
  site: 'site1',
  organization: 'org1',
  siteSpace: 'ss1',
  space: 'sp1',
  claims: { plan: 'pro', unsigned: {} },
};

describe('api token', () => {
  it('carries the lookup and the visitor claims, and expires more than 120 s ahead whenever it is made', async () => {
    for (const offset of [0, 1, WINDOW_SECONDS - 1]) {
      const now = new Date((1_800_000_000 - (1_800_000_000 % WINDOW_SECONDS) + offset) * 1000);
      const token = await signApiToken(SECRET, ISSUER, claims, now);
      const decoded = decodeJwt(token);
      expect(decoded).toMatchObject({ ...claims, iss: ISSUER });
      expect(decoded.exp! - now.getTime() / 1000).toBeGreaterThan(TTL_SECONDS - WINDOW_SECONDS - 1);
    }
  });

  it('is the same token for the same visitor within its window, another one for other claims or the next window', async () => {
    const t0 = new Date(1_800_000_000_000);
    const a = await signApiToken(SECRET, ISSUER, claims, t0);
    expect(await signApiToken(SECRET, ISSUER, claims, new Date(t0.getTime() + 1000))).toBe(a);
    expect(await signApiToken(SECRET, ISSUER, { ...claims, claims: { plan: 'free', unsigned: {} } }, t0)).not.toBe(a);
    expect(await signApiToken(SECRET, ISSUER, claims, new Date(t0.getTime() + WINDOW_SECONDS * 1000))).not.toBe(a);
  });

  it('verifies only its own, unexpired tokens', async () => {
    const token = await signApiToken(SECRET, ISSUER, claims);
    expect(await verifyApiToken(SECRET, ISSUER, token)).toMatchObject(claims);
    expect(await verifyApiToken('o'.repeat(40), ISSUER, token)).toBeNull();
    expect(await verifyApiToken(SECRET, 'http://elsewhere.test', token)).toBeNull();
    expect(
      await verifyApiToken(
        SECRET,
        ISSUER,
        await signApiToken(SECRET, ISSUER, claims, new Date(Date.now() - 2 * TTL_SECONDS * 1000)),
      ),
    ).toBeNull();
    expect(await verifyApiToken(SECRET, ISSUER, 'garbage')).toBeNull();
  });
});
