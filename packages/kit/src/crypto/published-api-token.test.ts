import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { signApiToken, TTL_SECONDS, verifyApiToken, WINDOW_SECONDS } from './published-api-token.ts';
import { TokenSigner } from './tokens.ts';

const SECRET = 's'.repeat(40);
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
      const now = (1_800_000_000 - (1_800_000_000 % WINDOW_SECONDS) + offset) * 1000;
      const token = await signApiToken(SECRET, claims, now);
      const decoded = decodeJwt(token);
      expect(decoded).toMatchObject({ ...claims, aud: 'quire:published-content' });
      expect(decoded.exp! - now / 1000).toBeGreaterThan(TTL_SECONDS - WINDOW_SECONDS - 1);
    }
  });

  it('is the same token for the same visitor within its window, another one for other claims or the next window', async () => {
    const t0 = 1_800_000_000_000;
    const a = await signApiToken(SECRET, claims, t0);
    expect(await signApiToken(SECRET, claims, t0 + 1000)).toBe(a);
    expect(await signApiToken(SECRET, { ...claims, claims: { plan: 'free', unsigned: {} } }, t0)).not.toBe(a);
    expect(await signApiToken(SECRET, claims, t0 + WINDOW_SECONDS * 1000)).not.toBe(a);
  });

  it('verifies only its own, unexpired tokens of its shape', async () => {
    const token = await signApiToken(SECRET, claims);
    expect(await verifyApiToken(SECRET, token)).toMatchObject(claims);
    expect(await verifyApiToken('o'.repeat(40), token)).toBeNull();
    expect(
      await verifyApiToken(SECRET, await signApiToken(SECRET, claims, Date.now() - 2 * TTL_SECONDS * 1000)),
    ).toBeNull();
    expect(await verifyApiToken(SECRET, 'garbage')).toBeNull();
    // Another purpose's token, with the same claims and key material, is not an api token.
    const download = await new TokenSigner(SECRET, 'download').sign(claims, Date.now() + 60_000);
    expect(await verifyApiToken(SECRET, download)).toBeNull();
    // A token of this purpose whose claims are not an api token's.
    const odd = await new TokenSigner(SECRET, 'published-content').sign({ site: '../x' }, Date.now() + 60_000);
    expect(await verifyApiToken(SECRET, odd)).toBeNull();
  });
});
