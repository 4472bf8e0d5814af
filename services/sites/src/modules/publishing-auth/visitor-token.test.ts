import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ops } from '@quire/contracts';
import { userActor } from '@quire/kit/testing';
import { startSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import type { SitesConfig } from '../../env.ts';
import { newPrivateKey, openPrivateKey, sealPrivateKey } from './private-key.ts';
import { publishingAuthRepository } from './publishing-auth.repository.ts';
import { verifyVisitorToken, visitorAuthUrls } from './visitor-token.ts';

const ORG = 'org-vt';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
let p: SitesPlatform;
let config: SitesConfig;

beforeAll(async () => {
  p = await startSitesAndContent('visitor-token');
  config = p.sites.svc.deps.config as SitesConfig;
});
afterAll(async () => p?.close());

const sign = (claims: Record<string, unknown>, key: string, exp: string | number = '1h', alg = 'HS256') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(key));

async function siteWithKey(): Promise<{ siteId: string; key: string }> {
  const site = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Private docs' }, admin);
  const key = newPrivateKey();
  await p.sites.em().transactional((tx) =>
    publishingAuthRepository.insertIfAbsent(tx, {
      siteId: site.id,
      privateKeySealed: sealPrivateKey(config, site.id, key),
      now: new Date(),
    }),
  );
  return { siteId: site.id, key };
}

describe('verifyVisitorToken', () => {
  it('answers the claims of a token signed HS256 with the site key, null for another key, expired or malformed', async () => {
    const { siteId, key } = await siteWithKey();
    const claims = await verifyVisitorToken(
      p.sites.em(),
      siteId,
      await sign({ plan: 'pro', roles: ['beta'] }, key),
      config,
    );
    expect(claims).toMatchObject({ plan: 'pro', roles: ['beta'] });
    expect(typeof claims!.exp).toBe('number');

    expect(
      await verifyVisitorToken(p.sites.em(), siteId, await sign({ plan: 'pro' }, newPrivateKey()), config),
    ).toBeNull();
    const expired = await sign({ plan: 'pro' }, key, Math.floor(Date.now() / 1000) - 3600);
    expect(await verifyVisitorToken(p.sites.em(), siteId, expired, config)).toBeNull();
    expect(await verifyVisitorToken(p.sites.em(), siteId, 'not-a-jwt', config)).toBeNull();
    expect(await verifyVisitorToken(p.sites.em(), siteId, await sign({ a: 1 }, key, '1h', 'HS512'), config)).toBeNull();
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"a":1}').toString('base64url')}.`;
    expect(await verifyVisitorToken(p.sites.em(), siteId, unsigned, config)).toBeNull();
  });

  it('is null for another site (its own key) and for a site without publishing auth', async () => {
    const a = await siteWithKey();
    const b = await siteWithKey();
    expect(await verifyVisitorToken(p.sites.em(), b.siteId, await sign({ x: 1 }, a.key), config)).toBeNull();
    const bare = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'No auth' }, admin);
    expect(await verifyVisitorToken(p.sites.em(), bare.id, await sign({ x: 1 }, a.key), config)).toBeNull();
    expect(await visitorAuthUrls(p.sites.em(), bare.id)).toEqual({ fallbackURL: null, logoutURL: null });
  });

  it('keeps the key sealed at rest: the stored value is not the key, and opens only for its own site', async () => {
    const { siteId, key } = await siteWithKey();
    const row = await publishingAuthRepository.find(p.sites.em(), siteId);
    expect(row!.privateKeySealed).not.toContain(key);
    expect(openPrivateKey(config, siteId, row!.privateKeySealed)).toBe(key);
    expect(() => openPrivateKey(config, 'another-site', row!.privateKeySealed)).toThrow();
  });
});
