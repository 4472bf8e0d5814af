import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { orgAdmin, useTestService, userActor } from '@quire/kit/testing';
import { loadIntegrationsConfig } from '../../env.ts';
import { integrationsService } from '../../service.ts';
import { failureMessage } from '../integrations/integration.fixtures.ts';

const t = useTestService(integrationsService, loadIntegrationsConfig, { label: 'integrations-installations' });

const configurations = {
  account: {
    properties: {
      token: { type: 'string' as const, title: 'API token' },
      region: { type: 'string' as const, enum: ['eu', 'us'] },
      retries: { type: 'number' as const, default: 3 },
      connect: { type: 'button' as const, callback_url: '/connect', button_text: 'Connect' },
    },
    required: ['token'],
  },
};

describe('installations', () => {
  it('install, list (externalId), get, update with the configuration checked, uninstall', async () => {
    await t.call(
      ops.publishIntegration,
      {
        integrationName: 'life',
        title: 'Lifecycle',
        description: 'd',
        script: 's',
        scopes: [],
        organization: 'dev',
        configurations,
      },
      orgAdmin('dev'),
    );
    const inst = await t.call(
      ops.installIntegration,
      { integrationName: 'life', organization: 'shop' },
      orgAdmin('shop'),
    );
    expect(inst).toMatchObject({
      object: 'integration-installation',
      status: 'active',
      space_selection: 'all',
      site_selection: 'all',
      configuration: {},
      externalIds: [],
      target: { organization: 'shop' },
    });
    expect(
      await failureMessage(
        t.call(ops.installIntegration, { integrationName: 'life', organization: 'shop' }, orgAdmin('shop')),
      ),
    ).toMatch(/already installed/);
    expect(
      await failureMessage(
        t.call(
          ops.installIntegration,
          { integrationName: 'life', organization: 'shop' },
          userActor('e', [{ organization: 'shop', role: 'edit' }]),
        ),
      ),
    ).toMatch(/needs the `admin` role/);

    for (const [configuration, message] of [
      [{ region: 'eu' }, 'Invalid request: configuration: `token` is required'],
      [{ token: 't', region: 'mars' }, 'Invalid request: configuration.region: must be one of "eu", "us"'],
      [{ token: 't', retries: 'x' }, 'Invalid request: configuration.retries: must be number'],
    ] satisfies [Record<string, unknown>, string][]) {
      const update = { integrationName: 'life', installationId: inst.id, configuration };
      expect(await failureMessage(t.call(ops.updateIntegrationInstallation, update, orgAdmin('shop')))).toBe(message);
    }
    const updated = await t.call(
      ops.updateIntegrationInstallation,
      {
        integrationName: 'life',
        installationId: inst.id,
        configuration: { token: 't', region: 'us' },
        externalIds: ['ext-1'],
        space_selection: 'selected',
      },
      orgAdmin('shop'),
    );
    expect(updated).toMatchObject({
      configuration: { token: 't', region: 'us' },
      externalIds: ['ext-1'],
      space_selection: 'selected',
    });
    const [event] = await t.outboxEvents('integration-installation.updated');
    expect(event!.data).toMatchObject({ fields: ['configuration', 'externalIds', 'spaceSelection'] });

    // The developer (owner admin) sees every installation; another organization's admin only its own.
    await t.call(ops.installIntegration, { integrationName: 'life', organization: 'other' }, orgAdmin('other'));
    expect((await t.call(ops.listIntegrationInstallations, { integrationName: 'life' }, orgAdmin('dev'))).count).toBe(
      2,
    );
    expect(
      (await t.call(ops.listIntegrationInstallations, { integrationName: 'life' }, orgAdmin('other'))).items.map(
        (i) => i.target.organization,
      ),
    ).toEqual(['other']);
    expect(
      (
        await t.call(
          ops.listIntegrationInstallations,
          { integrationName: 'life', externalId: 'ext-1' },
          orgAdmin('dev'),
        )
      ).items.map((i) => i.id),
    ).toEqual([inst.id]);
    /** `getIntegrationInstallationById` of the installation as the admin of `org`, which must fail: its message. */
    const refusedGet = (org: string) =>
      failureMessage(
        t.call(ops.getIntegrationInstallationById, { integrationName: 'life', installationId: inst.id }, orgAdmin(org)),
      );
    expect(await refusedGet('other')).toBe('Installation not found');

    await t.call(ops.uninstallIntegration, { integrationName: 'life', installationId: inst.id }, orgAdmin('shop'));
    expect(await refusedGet('dev')).toBe('Installation not found');
  });
});
