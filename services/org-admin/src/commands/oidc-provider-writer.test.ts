import { describe, expect, it } from 'vitest';
import { SecretBox, type EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig, type OrgAdminConfig } from '../env.ts';
import { OidcProvider } from '../modules/oidc/oidc-provider.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import {
  oidcProviderCreator,
  oidcProviderDeleter,
  oidcProviderUpdater,
  oidcSecretResealer,
} from './oidc-provider-writer.ts';
import { teamCreator } from './team-member-updater.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'oidc-provider-writer' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const KEY_A = 'a'.repeat(32);
const KEY_B = 'b'.repeat(32);
const configWith = (over: Partial<OrgAdminConfig>) =>
  ({ ...(t.svc.deps.config as OrgAdminConfig), ...over }) as OrgAdminConfig;
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};
const stored = (id: string) => t.em().findOneOrFail(OidcProvider, { id });

async function created(organizationId: string, config: OrgAdminConfig, clientSecret?: string | null) {
  return inTx((tx) =>
    oidcProviderCreator(tx, config, {
      organizationId,
      label: 'Okta',
      issuer: 'https://idp.example.test',
      clientId: 'quire',
      ...(clientSecret === undefined ? {} : { clientSecret }),
      scopes: ['groups', 'email', 'groups'],
    }),
  );
}

describe('oidcProviderCreator and oidcProviderUpdater', () => {
  it('stores a provider with openid and email first in its scopes and its client secret sealed to it', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const config = configWith({ QUIRE_SECRETS_KEY: KEY_A });
    const p = await created(organizationId, config, 'shh');
    const row = await stored(p.id);
    expect(row).toMatchObject({
      organizationId,
      label: 'Okta',
      issuer: 'https://idp.example.test',
      clientId: 'quire',
      scopes: 'openid email groups',
      defaultTeamId: null,
      defaultRole: null,
    });
    expect(row.clientSecret).not.toContain('shh');
    expect(SecretBox.keyIdOf(row.clientSecret!)).toBe(new SecretBox(KEY_A).keyId);
    expect(new SecretBox(KEY_A).open(row.clientSecret!, `oidc:${p.id}`)).toBe('shh');
    // Sealed to this provider: it does not open as another's.
    expect(() => new SecretBox(KEY_A).open(row.clientSecret!, 'oidc:other')).toThrow();
  });

  it('changes only what is given, clears the secret with null, and sets the defaults from a team of the organization', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const config = configWith({ QUIRE_SECRETS_KEY: KEY_A });
    const p = await created(organizationId, config, 'shh');
    const team = await inTx((tx) => teamCreator(tx, { organizationId, title: 'SSO people' }));
    await inTx(async (tx) =>
      oidcProviderUpdater(tx, config, {
        provider: await tx.findOneOrFail(OidcProvider, { id: p.id }),
        label: 'Okta (prod)',
        clientSecret: null,
        defaultTeam: team.id,
        defaultRole: 'edit',
      }),
    );
    expect(await stored(p.id)).toMatchObject({
      label: 'Okta (prod)',
      issuer: 'https://idp.example.test',
      clientSecret: null,
      scopes: 'openid email groups',
      defaultTeamId: team.id,
      defaultRole: 'edit',
    });
  });

  it('refuses an http issuer unless private fetches are allowed, and a team of another organization', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const other = await seedOrganization(t, {});
    const config = configWith({ QUIRE_SECRETS_KEY: KEY_A, QUIRE_ALLOW_PRIVATE_FETCH: false });
    const p = await created(organizationId, config);
    const update = (input: { issuer?: string; defaultTeam?: string }) =>
      inTx(async (tx) =>
        oidcProviderUpdater(tx, config, { provider: await tx.findOneOrFail(OidcProvider, { id: p.id }), ...input }),
      );
    expect(await refusal(update({ issuer: 'http://idp.example.test' }))).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: issuer: must be an https URL (http only with QUIRE_ALLOW_PRIVATE_FETCH=1)',
    });
    const theirs = await inTx((tx) => teamCreator(tx, { organizationId: other.organizationId, title: 'Theirs' }));
    expect(await refusal(update({ defaultTeam: theirs.id }))).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: defaultTeam: no such team in the organization',
    });
    expect(await stored(p.id)).toMatchObject({ issuer: 'https://idp.example.test', defaultTeamId: null });
    // Allowed where private fetches are (development, tests).
    await inTx(async (tx) =>
      oidcProviderUpdater(tx, configWith({ QUIRE_SECRETS_KEY: KEY_A, QUIRE_ALLOW_PRIVATE_FETCH: true }), {
        provider: await tx.findOneOrFail(OidcProvider, { id: p.id }),
        issuer: 'http://127.0.0.1:9999',
      }),
    );
    expect((await stored(p.id)).issuer).toBe('http://127.0.0.1:9999');
  });

  it('refuses to store a client secret where no secrets key is set, and stores nothing', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const noKey = configWith({ QUIRE_SECRETS_KEY: undefined });
    const err = await failureOf(created(organizationId, noKey, 'shh'));
    expect(err.message).toMatch(/QUIRE_SECRETS_KEY/);
    expect(await t.em().count(OidcProvider, { organizationId })).toBe(0);
  });
});

describe('oidcProviderDeleter', () => {
  it('deletes the provider', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const p = await created(organizationId, configWith({ QUIRE_SECRETS_KEY: KEY_A }));
    await inTx(async (tx) => oidcProviderDeleter(tx, { provider: await tx.findOneOrFail(OidcProvider, { id: p.id }) }));
    expect(await t.em().count(OidcProvider, { id: p.id })).toBe(0);
  });
});

describe('oidcSecretResealer', () => {
  it('re-seals a secret under the current key after a rotation, once, and leaves one no key opens', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const p = await created(organizationId, configWith({ QUIRE_SECRETS_KEY: KEY_A }), 'shh');
    const rotated = configWith({ QUIRE_SECRETS_KEY: KEY_B, QUIRE_SECRETS_PREVIOUS_KEYS: [KEY_A] });
    const reseal = (config: OrgAdminConfig) => inTx((tx) => oidcSecretResealer(tx, { providerId: p.id, config }));

    // A key that does not open it: left as it is.
    const before = (await stored(p.id)).clientSecret;
    expect(await reseal(configWith({ QUIRE_SECRETS_KEY: KEY_B, QUIRE_SECRETS_PREVIOUS_KEYS: [] }))).toBe('unknown-key');
    expect((await stored(p.id)).clientSecret).toBe(before);

    expect(await reseal(rotated)).toBe('resealed');
    const after = (await stored(p.id)).clientSecret!;
    expect(SecretBox.keyIdOf(after)).toBe(new SecretBox(KEY_B).keyId);
    expect(new SecretBox(KEY_B).open(after, `oidc:${p.id}`)).toBe('shh');
    expect(await reseal(rotated)).toBe('current');
    expect(await inTx((tx) => oidcSecretResealer(tx, { providerId: 'gone', config: rotated }))).toBe('current');
  });
});
