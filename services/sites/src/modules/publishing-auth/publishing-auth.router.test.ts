import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ops } from '@quire/contracts';
import { failureOf } from '@quire/kit/testing';
import { orgActors, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import type { SitesConfig } from '../../env.ts';
import { publishingAuthRepository } from './publishing-auth.repository.ts';
import { verifyVisitorToken, visitorAuthUrls } from './visitor-token.ts';

const ORG = 'org-pa';
const { admin, creator, reader, stranger } = orgActors(ORG, 'org-else');

const p = useSitesAndContent('publishing-auth');
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

const newSite = async () =>
  (await call(ops.createSite, { organizationId: ORG, title: 'Members only', visibility: 'visitor-auth' }, admin)).id;
const sign = (key: string) =>
  new SignJWT({ tier: 'gold' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(key));
const config = () => p.sites.svc.deps.config as SitesConfig;

describe('site publishing auth', () => {
  it('makes a random key on first read, keeps it, and seals it at rest', async () => {
    const siteId = await newSite();
    const first = await call(ops.getSitePublishingAuthById, { organizationId: ORG, siteId }, creator);
    expect(first).toEqual({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect((await call(ops.getSitePublishingAuthById, { organizationId: ORG, siteId }, admin)).privateKey).toBe(
      first.privateKey,
    );
    const other = await call(ops.getSitePublishingAuthById, { organizationId: ORG, siteId: await newSite() }, admin);
    expect(other.privateKey).not.toBe(first.privateKey);
    const row = await publishingAuthRepository.find(p.sites.em(), siteId);
    expect(row!.privateKeySealed).not.toContain(first.privateKey);
    expect(await verifyVisitorToken(p.sites.em(), siteId, await sign(first.privateKey), config())).toMatchObject({
      tier: 'gold',
    });
  });

  it('sets and unsets the sign-in and sign-out URLs', async () => {
    const siteId = await newSite();
    const set = await call(
      ops.updateSitePublishingAuthById,
      {
        organizationId: ORG,
        siteId,
        backend: 'custom',
        fallbackURL: 'https://auth.example.com/login',
        logoutURL: 'https://auth.example.com/logout',
      },
      creator,
    );
    expect(set).toMatchObject({
      fallbackURL: 'https://auth.example.com/login',
      logoutURL: 'https://auth.example.com/logout',
    });
    expect(await visitorAuthUrls(p.sites.em(), siteId)).toEqual({
      fallbackURL: 'https://auth.example.com/login',
      logoutURL: 'https://auth.example.com/logout',
    });
    const kept = await call(
      ops.updateSitePublishingAuthById,
      { organizationId: ORG, siteId, backend: 'custom', logoutURL: null },
      creator,
    );
    expect(kept.fallbackURL).toBe('https://auth.example.com/login');
    expect(kept.logoutURL).toBeUndefined();
    expect(kept.privateKey).toBe(set.privateKey);
  });

  it('regenerates the key: tokens signed with the old one stop working', async () => {
    const siteId = await newSite();
    const before = await call(ops.getSitePublishingAuthById, { organizationId: ORG, siteId }, admin);
    const token = await sign(before.privateKey);
    const after = await call(ops.regenerateSitePublishingAuthById, { organizationId: ORG, siteId }, creator);
    expect(after.privateKey).not.toBe(before.privateKey);
    expect(await verifyVisitorToken(p.sites.em(), siteId, token, config())).toBeNull();
    expect(await verifyVisitorToken(p.sites.em(), siteId, await sign(after.privateKey), config())).toMatchObject({
      tier: 'gold',
    });
  });

  it('400 naming the field; the key only for `create` members (403 below), 404 for another organization', async () => {
    const siteId = await newSite();
    const where = { organizationId: ORG, siteId };
    const bad = await failureOf(
      call(
        ops.updateSitePublishingAuthById,
        { ...where, backend: 'custom', fallbackURL: 'javascript:alert(1)' },
        admin,
      ),
    );
    expect([bad.reason, bad.message]).toEqual(['invalid_input', expect.stringMatching(/fallbackURL/)]);
    expect(
      (await failureOf(call(ops.updateSitePublishingAuthById, { ...where, backend: 'nope' } as never, admin))).message,
    ).toMatch(/backend/);
    expect(
      (await failureOf(call(ops.updateSitePublishingAuthById, { ...where, backend: 'integration' }, admin))).message,
    ).toMatch(/backend/);
    expect(
      (
        await failureOf(
          call(
            ops.updateSitePublishingAuthById,
            { ...where, backend: 'custom', fallbackURL: `https://x.example.com/${'a'.repeat(2100)}` },
            admin,
          ),
        )
      ).message,
    ).toMatch(/fallbackURL/);
    for (const op of [
      () => call(ops.getSitePublishingAuthById, where, reader),
      () => call(ops.updateSitePublishingAuthById, { ...where, backend: 'custom' }, reader),
      () => call(ops.regenerateSitePublishingAuthById, where, reader),
    ])
      expect((await failureOf(op())).reason).toBe('forbidden');
    expect((await failureOf(call(ops.getSitePublishingAuthById, where, stranger))).reason).toBe('not_found');
    expect((await failureOf(call(ops.regenerateSitePublishingAuthById, where, stranger))).reason).toBe('not_found');
    expect(await publishingAuthRepository.find(p.sites.em(), siteId)).toBeNull();
  });
});
