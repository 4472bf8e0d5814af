import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { failureOf, selfSignedCertificatePem, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { SamlProvider, type ISamlProvider } from '../modules/saml/saml-provider.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import {
  samlProviderCreator,
  samlProviderDeleter,
  samlProviderUpdater,
  type SamlSettings,
} from './saml-provider-writer.ts';
import { teamCreator } from './team-member-updater.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'saml-provider-writer' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
let certificate: string;
beforeAll(() => {
  certificate = selfSignedCertificatePem('idp.example');
});
const stored = (id: string) => t.em().fork().findOne(SamlProvider, { id });
const update = (id: string, settings: SamlSettings) =>
  inTx(async (tx) => samlProviderUpdater(tx, { provider: await tx.findOneOrFail(SamlProvider, { id }), ...settings }));
const onProvider = <T>(id: string, fn: (tx: EntityManager, p: ISamlProvider) => T) =>
  inTx(async (tx) => fn(tx, await tx.findOneOrFail(SamlProvider, { id })));
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};

describe('samlProviderCreator and samlProviderUpdater', () => {
  it('creates a provider from a label alone, then sets only what each update gives', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const p = await inTx((tx) => samlProviderCreator(tx, { organizationId, label: 'Okta' }));
    expect(await stored(p.id)).toMatchObject({
      organizationId,
      label: 'Okta',
      entityId: null,
      certificate: null,
      ssoUrl: null,
      defaultTeamId: null,
      defaultRole: null,
    });
    await update(p.id, { ssoURL: 'https://idp.example/sso', entityID: 'https://idp.example/entity' });
    await update(p.id, { label: 'Okta (prod)', defaultRole: 'read' });
    expect(await stored(p.id)).toMatchObject({
      label: 'Okta (prod)',
      entityId: 'https://idp.example/entity',
      ssoUrl: 'https://idp.example/sso',
      defaultRole: 'read',
    });
  });

  it('stores a certificate pasted as PEM or as bare base64 the same way, and refuses one that is not', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const p = await inTx((tx) =>
      samlProviderCreator(tx, { organizationId, label: 'IdP', certificate: `\n  ${certificate}\n` }),
    );
    const pem = (await stored(p.id))!.certificate!;
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{1,64}\n)+-----END CERTIFICATE-----$/);
    const bare = certificate
      .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
      .replace(/\s+/g, '')
      .replace(/(.{76})/g, '$1\n');
    await update(p.id, { certificate: bare });
    expect((await stored(p.id))!.certificate).toBe(pem);
    expect(await refusal(update(p.id, { certificate: 'not a certificate' }))).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: certificate: not a PEM-encoded X.509 certificate, nor the base64 DER of one',
    });
    expect((await stored(p.id))!.certificate).toBe(pem);
  });

  it("sets the default team from the organization's teams only (400), nothing created on a refusal", async () => {
    const { organizationId } = await seedOrganization(t, {});
    const other = await seedOrganization(t, {});
    const mine = await inTx((tx) => teamCreator(tx, { organizationId, title: 'SSO' }));
    const theirs = await inTx((tx) => teamCreator(tx, { organizationId: other.organizationId, title: 'Theirs' }));
    const p = await inTx((tx) => samlProviderCreator(tx, { organizationId, label: 'With team', defaultTeam: mine.id }));
    expect((await stored(p.id))!.defaultTeamId).toBe(mine.id);
    expect(
      await refusal(
        inTx((tx) => samlProviderCreator(tx, { organizationId, label: 'Refused', defaultTeam: theirs.id })),
      ),
    ).toEqual({ reason: 'invalid_input', message: 'Invalid request: defaultTeam: no such team in the organization' });
    expect(await t.em().count(SamlProvider, { organizationId, label: 'Refused' })).toBe(0);
  });
});

describe('samlProviderDeleter', () => {
  it('deletes the provider', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const p = await inTx((tx) => samlProviderCreator(tx, { organizationId, label: 'Gone' }));
    await onProvider(p.id, (tx, provider) => samlProviderDeleter(tx, { provider }));
    expect(await stored(p.id)).toBeNull();
  });
});
