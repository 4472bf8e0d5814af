import { beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { expectReasons, failureOf, reasonOf, selfSignedCertificatePem, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { seedOrganization } from '../../test-support.ts';
import { contentWithoutSpaces } from '../teams/team-spaces.testing.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'saml' });
let certificate: string;

beforeAll(() => {
  certificate = selfSignedCertificatePem('idp.example');
  contentWithoutSpaces(t.svc.deps.peers);
});

describe('SAML providers', () => {
  it('creates a pending provider from a label, activates it once configured, derives the service URLs', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const created = await t.call(ops.createOrganizationSAMLProvider, { organizationId, label: 'Okta' }, admin.actor);
    expect(created).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      status: 'pending',
      ssoURL: '',
      entityID: '',
      certificate: '',
      defaultRole: null,
    });
    expect(created.defaultTeam).toBeUndefined();
    expect(created.service).toEqual({
      acsURL: `http://quire.test/saml/${created.id}/acs`,
      startURL: `http://quire.test/saml/${created.id}/start`,
      entityID: `http://quire.test/saml/${created.id}/metadata`,
    });
    expect(created.urls.location).toBe(`http://quire.test/v1/orgs/${organizationId}/saml/${created.id}`);

    const team = await t.call(ops.createOrganizationTeam, { organizationId, title: 'SSO people' }, admin.actor);
    const updated = await t.call(
      ops.updateOrganizationSAMLProvider,
      {
        organizationId,
        samlProviderId: created.id,
        ssoURL: 'https://idp.example/sso',
        entityID: 'https://idp.example/entity',
        certificate: `\n${certificate}`,
        defaultTeam: team.id,
        defaultRole: 'edit',
      },
      admin.actor,
    );
    expect(updated).toMatchObject({
      status: 'active',
      ssoURL: 'https://idp.example/sso',
      entityID: 'https://idp.example/entity',
      certificate: certificate.trim(),
      defaultRole: 'edit',
      defaultTeam: { id: team.id, title: 'SSO people', object: 'team' },
    });
    expect(
      await t.call(ops.getOrganizationSAMLProviderById, { organizationId, samlProviderId: created.id }, admin.actor),
    ).toEqual(updated);
    expect(
      (
        await t.call(
          ops.updateOrganizationSAMLProvider,
          { organizationId, samlProviderId: created.id, defaultTeam: null },
          admin.actor,
        )
      ).defaultTeam,
    ).toBeUndefined();

    const list = await t.call(ops.listSAMLProvidersInOrganizationById, { organizationId }, admin.actor);
    expect(list).toMatchObject({ count: 1, items: [{ id: created.id, status: 'active' }] });
    await t.call(ops.deleteOrganizationSAMLProvider, { organizationId, samlProviderId: created.id }, admin.actor);
    expect(
      (
        await failureOf(
          t.call(ops.getOrganizationSAMLProviderById, { organizationId, samlProviderId: created.id }, admin.actor),
        )
      ).message,
    ).toBe('SAML provider not found');
  });

  it('validates every field, naming it', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const other = await seedOrganization(t, {});
    const foreignTeam = await t.call(
      ops.createOrganizationTeam,
      { organizationId: other.organizationId, title: 'Theirs' },
      other.admin.actor,
    );
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ label: '' }, /label: Too small/],
      [{ label: 'x'.repeat(31) }, /label: Too big/],
      [{ label: 'ok', entityID: 'e'.repeat(1025) }, /entityID: Too big/],
      [{ label: 'ok', certificate: 'c'.repeat(10_001) }, /certificate: Too big/],
      [{ label: 'ok', certificate: 'not a certificate' }, /certificate: not a PEM-encoded X\.509 certificate/],
      [
        { label: 'ok', certificate: `${certificate.slice(0, 200)}\n-----END CERTIFICATE-----\n` },
        /certificate: not a PEM-encoded X\.509 certificate/,
      ],
      [
        { label: 'ok', certificate: certificate.replaceAll('CERTIFICATE', 'PUBLIC KEY') },
        /certificate: not a PEM-encoded X\.509 certificate/,
      ],
      [{ label: 'ok', ssoURL: 'not a url' }, /ssoURL/],
      [{ label: 'ok', ssoURL: 'javascript:alert(1)' }, /ssoURL/],
      [{ label: 'ok', ssoURL: `https://idp.example/${'p'.repeat(2048)}` }, /ssoURL: Too big/],
      [{ label: 'ok', defaultTeam: foreignTeam.id }, /defaultTeam: no such team in the organization/],
      [{ label: 'ok', defaultRole: 'owner' }, /defaultRole/],
    ];
    for (const [body, message] of cases) {
      const err = await failureOf(
        t.call(ops.createOrganizationSAMLProvider, { organizationId, ...body } as never, admin.actor),
      );
      expect(err.reason, JSON.stringify(body).slice(0, 80)).toBe('invalid_input');
      expect(err.message).toMatch(message);
    }
    expect((await t.call(ops.listSAMLProvidersInOrganizationById, { organizationId }, admin.actor)).count).toBe(0);
  });

  it('is for organization admins only; other organizations get 404', async () => {
    const { organizationId, admin, users } = await seedOrganization(t, { eve: 'create' });
    const other = await seedOrganization(t, {});
    const provider = await t.call(ops.createOrganizationSAMLProvider, { organizationId, label: 'Azure' }, admin.actor);
    const samlProviderId = provider.id;
    await expectReasons('forbidden', [
      () => t.call(ops.listSAMLProvidersInOrganizationById, { organizationId }, users.eve.actor),
      () => t.call(ops.createOrganizationSAMLProvider, { organizationId, label: 'Mine' }, users.eve.actor),
      () => t.call(ops.deleteOrganizationSAMLProvider, { organizationId, samlProviderId }, users.eve.actor),
    ]);
    await expectReasons('not_found', [
      () => t.call(ops.getOrganizationSAMLProviderById, { organizationId, samlProviderId }, other.admin.actor),
      () =>
        t.call(
          ops.getOrganizationSAMLProviderById,
          { organizationId: other.organizationId, samlProviderId },
          other.admin.actor,
        ),
    ]);
  });

  it('lists the active providers as SSO login options, to members (guests too) only', async () => {
    const { organizationId, admin, users } = await seedOrganization(t, { gil: null });
    const other = await seedOrganization(t, {});
    const active = await t.call(
      ops.createOrganizationSAMLProvider,
      { organizationId, label: 'Google', ssoURL: 'https://accounts.example/sso', entityID: 'urn:google', certificate },
      admin.actor,
    );
    expect(active.status).toBe('active');
    await t.call(ops.createOrganizationSAMLProvider, { organizationId, label: 'Half done' }, admin.actor);
    const sso = await t.call(ops.listSSOProviderLoginsInOrganization, { organizationId }, users.gil.actor);
    expect(sso).toEqual({
      items: [{ id: active.id, label: 'Google', startURL: `http://quire.test/saml/${active.id}/start` }],
    });
    expect(await t.call(ops.listSSOProviderLoginsInOrganization, { organizationId }, admin.actor)).toEqual(sso);
    // Every operation takes the token (api.md; GitBook's document secures this one too): no token is a 401, another organization's a 404.
    expect(
      await reasonOf(t.call(ops.listSSOProviderLoginsInOrganization, { organizationId }, { kind: 'anonymous' })),
    ).toBe('unauthenticated');
    await expectReasons('not_found', [
      () => t.call(ops.listSSOProviderLoginsInOrganization, { organizationId }, other.admin.actor),
      () => t.call(ops.listSSOProviderLoginsInOrganization, { organizationId: 'missing' }, admin.actor),
    ]);
  });

  it('accepts a PEM or the bare base64 DER of IdP metadata, and stores PEM', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    const der = certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    const fromDer = await t.call(
      ops.createOrganizationSAMLProvider,
      { organizationId, label: 'DER', certificate: `  ${der.slice(0, 100)}\n${der.slice(100)}  ` },
      admin.actor,
    );
    const fromPem = await t.call(
      ops.createOrganizationSAMLProvider,
      { organizationId, label: 'PEM', certificate },
      admin.actor,
    );
    expect(fromDer.certificate).toBe(fromPem.certificate);
    expect(fromDer.certificate).toMatch(
      /^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{64}\n)+[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE-----$/,
    );
    for (const bad of [der.slice(0, 200), Buffer.from('not a certificate').toString('base64'), '', '====']) {
      expect(
        (
          await failureOf(
            t.call(ops.createOrganizationSAMLProvider, { organizationId, label: 'Bad', certificate: bad }, admin.actor),
          )
        ).message,
      ).toMatch(/certificate: not a PEM-encoded X\.509 certificate/);
    }
  });
});
