import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { openPrivateKey, type KeyBoxConfig } from '../modules/publishing-auth/private-key.ts';
import { SitePublishingAuth } from '../modules/publishing-auth/publishing-auth.entity.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { sitesService } from '../service.ts';
import { orgActors } from '../test-support.ts';
import {
  publishingAuthInitializer,
  publishingAuthKeyRegenerator,
  publishingAuthUpdater,
  publishingKeyResealer,
} from './publishing-auth-commands.ts';

const ORG = 'org-publishing-auth';
const { creator } = orgActors(ORG, 'org-elsewhere');
const t = useTestService(sitesService, loadSitesConfig, { label: 'publishing-auth' });

const OLD_KEY = 'old-secrets-key-0123456789abcdef0123456';
const NEW_KEY = 'new-secrets-key-0123456789abcdef0123456';
const internal = 'internal-secret-0123456789abcdef';
const before: KeyBoxConfig = {
  QUIRE_SECRETS_KEY: OLD_KEY,
  QUIRE_INTERNAL_SECRET: internal,
  QUIRE_SECRETS_PREVIOUS_KEYS: [],
};
const rotated: KeyBoxConfig = {
  QUIRE_SECRETS_KEY: NEW_KEY,
  QUIRE_INTERNAL_SECRET: internal,
  QUIRE_SECRETS_PREVIOUS_KEYS: [OLD_KEY],
};
const lost: KeyBoxConfig = {
  QUIRE_SECRETS_KEY: NEW_KEY,
  QUIRE_INTERNAL_SECRET: internal,
  QUIRE_SECRETS_PREVIOUS_KEYS: [],
};

const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const newSite = async () => (await t.call(ops.createSite, { organizationId: ORG, title: 'Private' }, creator)).id;
const initialize = (siteId: string, config = before) =>
  inTx(async (tx) => publishingAuthInitializer(tx, { site: await tx.findOneOrFail(Site, { id: siteId }), config }));
const stored = (siteId: string) => t.em().findOneOrFail(SitePublishingAuth, { siteId }, { refresh: true });

describe('publishingAuthInitializer', () => {
  it("makes a site's key once, sealed for that site; a second use keeps it", async () => {
    const siteId = await newSite();
    const first = await initialize(siteId);
    const key = openPrivateKey(before, siteId, first.privateKeySealed);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.privateKeySealed).not.toContain(key);
    const again = await initialize(siteId);
    expect(again.privateKeySealed).toBe(first.privateKeySealed);
    expect(await t.em().count(SitePublishingAuth, { siteId })).toBe(1);
    // Sealed for this site: it does not open as another site's.
    const other = await newSite();
    expect(() => openPrivateKey(before, other, first.privateKeySealed)).toThrow();
  });
});

describe('publishingAuthUpdater and publishingAuthKeyRegenerator', () => {
  it('sets the backend and the URLs given (null unsets one), and replaces the key with a new one', async () => {
    const siteId = await newSite();
    const auth = await initialize(siteId);
    const update = (props: {
      backend: 'custom' | 'integration';
      fallbackURL?: string | null;
      logoutURL?: string | null;
    }) =>
      inTx(async (tx) =>
        publishingAuthUpdater(tx, { auth: await tx.findOneOrFail(SitePublishingAuth, { siteId }), ...props }),
      );
    await update({ backend: 'custom', fallbackURL: 'https://login.test/in', logoutURL: 'https://login.test/out' });
    await update({ backend: 'integration', logoutURL: null });
    expect(await stored(siteId)).toMatchObject({
      backend: 'integration',
      fallbackUrl: 'https://login.test/in',
      logoutUrl: null,
    });
    const oldKey = openPrivateKey(before, siteId, auth.privateKeySealed);
    await inTx(async (tx) =>
      publishingAuthKeyRegenerator(tx, {
        auth: await tx.findOneOrFail(SitePublishingAuth, { siteId }),
        config: before,
      }),
    );
    const newKey = openPrivateKey(before, siteId, (await stored(siteId)).privateKeySealed);
    expect(newKey).not.toBe(oldKey);
  });
});

describe('publishingKeyResealer', () => {
  it('re-seals a key under the current secrets key after a rotation, once; a key no configured key opens is left', async () => {
    const siteId = await newSite();
    const sealed = (await initialize(siteId)).privateKeySealed;
    const key = openPrivateKey(before, siteId, sealed);
    const reseal = (config: KeyBoxConfig) => inTx((tx) => publishingKeyResealer(tx, { siteId, config }));
    expect(await reseal(before)).toBe('current');
    expect(await reseal(lost)).toBe('unknown-key');
    expect((await stored(siteId)).privateKeySealed).toBe(sealed);
    expect(await reseal(rotated)).toBe('resealed');
    const resealed = (await stored(siteId)).privateKeySealed;
    expect(resealed).not.toBe(sealed);
    expect(openPrivateKey(lost, siteId, resealed)).toBe(key);
    expect(await reseal(rotated)).toBe('current');
    expect(await inTx((tx) => publishingKeyResealer(tx, { siteId: 'no-such-site', config: rotated }))).toBe('current');
  });
});
