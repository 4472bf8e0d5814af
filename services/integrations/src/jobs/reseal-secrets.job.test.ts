import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { SecretBox, sql } from '@quire/kit';
import { orgAdmin, useTestService } from '@quire/kit/testing';
import { loadIntegrationsConfig } from '../env.ts';
import { integrationsService } from '../service.ts';
import { secretsAad } from '../commands/integration-publisher.ts';
import { publication } from '../modules/integrations/integration.fixtures.ts';
import { resealSecrets } from './reseal-secrets.job.ts';

const OLD = 'old-secrets-key-'.repeat(3);
const NEW = 'new-secrets-key-'.repeat(3);
const t = useTestService(integrationsService, loadIntegrationsConfig, {
  label: 'integrations-reseal',
  env: { QUIRE_SECRETS_KEY: OLD },
});
const sealed = async () =>
  (await sql<{ secrets: string }>(t.em(), `select secrets from :schema.integration where name = 'rot'`))[0]!.secrets;

describe('key rotation', () => {
  it('re-seals secrets under the new key; the old key is then no longer needed', async () => {
    const secrets = { A: 'alpha' };
    await t.call(ops.publishIntegration, { integrationName: 'rot', ...publication('o', { secrets }) }, orgAdmin('o'));
    const before = await sealed();
    expect(SecretBox.keyIdOf(before)).toBe(new SecretBox(OLD).keyId);
    expect(await resealSecrets(t.em(), new SecretBox(NEW))).toEqual({ resealed: 0, unknownKey: 1 });
    expect(await resealSecrets(t.em(), new SecretBox(NEW, [OLD]))).toEqual({ resealed: 1, unknownKey: 0 });
    const after = await sealed();
    expect(SecretBox.keyIdOf(after)).toBe(new SecretBox(NEW).keyId);
    expect(JSON.parse(new SecretBox(NEW).open(after, secretsAad('rot')))).toEqual({ A: 'alpha' });
    expect(await resealSecrets(t.em(), new SecretBox(NEW, [OLD]))).toEqual({ resealed: 0, unknownKey: 0 });
  });
});
