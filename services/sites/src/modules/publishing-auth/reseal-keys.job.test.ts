import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { SecretBox } from '@quire/kit';
import { userActor } from '@quire/kit/testing';
import { startSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { publishingAuthRepository } from './publishing-auth.repository.ts';
import { resealPublishingKeys } from './reseal-keys.job.ts';
import { openPrivateKey } from './private-key.ts';

const ORG = 'org-rs';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const OLD = 'old-secrets-key-'.padEnd(40, 'o');
const NEW = 'new-secrets-key-'.padEnd(40, 'n');
const config = (current: string, previous: string[] = []) => ({
  QUIRE_SECRETS_KEY: current,
  QUIRE_INTERNAL_SECRET: 'x'.repeat(40),
  QUIRE_SECRETS_PREVIOUS_KEYS: previous,
});

let p: SitesPlatform;
beforeAll(async () => {
  p = await startSitesAndContent('reseal-keys', { sitesEnv: { QUIRE_SECRETS_KEY: OLD } });
});
afterAll(async () => p?.close());

describe('re-sealing the sites’ publishing keys after a secrets-key rotation', () => {
  it('moves keys sealed with a previous key to the current one, the key unchanged; reports keys nothing opens', async () => {
    const site = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Portal' }, admin);
    const { privateKey } = await p.sites.call(
      ops.getSitePublishingAuthById,
      { organizationId: ORG, siteId: site.id },
      admin,
    );
    const before = (await publishingAuthRepository.find(p.sites.em(), site.id))!.privateKeySealed;
    expect(SecretBox.keyIdOf(before)).toBe(new SecretBox(OLD).keyId);

    expect(await resealPublishingKeys(p.sites.em(), config(NEW))).toEqual({ resealed: 0, unknownKey: 1 });
    expect(await resealPublishingKeys(p.sites.em(), config(NEW, [OLD]))).toEqual({ resealed: 1, unknownKey: 0 });
    const after = (await publishingAuthRepository.find(p.sites.em(), site.id))!.privateKeySealed;
    expect(SecretBox.keyIdOf(after)).toBe(new SecretBox(NEW).keyId);
    expect(openPrivateKey(config(NEW), site.id, after)).toBe(privateKey);
    expect(await resealPublishingKeys(p.sites.em(), config(NEW, [OLD]))).toEqual({ resealed: 0, unknownKey: 0 });
  });
});
