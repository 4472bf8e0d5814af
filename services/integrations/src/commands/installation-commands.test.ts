import { describe, expect, it } from 'vitest';
import { SecretBox, type EntityManager } from '@quire/kit';
import { failureOf, TEST_SECRETS_KEY, useTestService } from '@quire/kit/testing';
import { loadIntegrationsConfig } from '../env.ts';
import { Installation } from '../modules/installations/installation.entity.ts';
import { Integration } from '../modules/integrations/integration.entity.ts';
import { integrationsService } from '../service.ts';
import { installationCreator, installationDeleter, installationUpdater } from './installation-commands.ts';
import { integrationPublisher } from './integration-publisher.ts';

const t = useTestService(integrationsService, loadIntegrationsConfig, { label: 'installations' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);

async function integrationNamed(name: string) {
  return inTx((tx) =>
    integrationPublisher(tx, {
      input: { integrationName: name, runtime: 'v1', title: name, description: 'd', scopes: [], script: 'x' },
      ownerId: 'org-owner',
      existing: null,
      blobs: t.svc.deps.blobs,
      box: new SecretBox(TEST_SECRETS_KEY, []),
      publishedBy: 'u',
    }),
  );
}
const install = (name: string, organizationId: string) =>
  inTx(async (tx) =>
    installationCreator(tx, { integration: await tx.findOneOrFail(Integration, { name }), organizationId }),
  );
const eventsOf = async (installation: string) =>
  (await t.outboxEvents())
    .filter((e) => (e.data as { installation?: string }).installation === installation)
    .map((e) => ({ type: e.type, fields: (e.data as { fields?: string[] }).fields }));

describe('installation commands', () => {
  it('installs once per organization (409 the second time), with everything selected', async () => {
    await integrationNamed('once');
    const first = await install('once', 'org-a');
    expect(await t.em().findOneOrFail(Installation, { id: first.id })).toMatchObject({
      integrationName: 'once',
      organizationId: 'org-a',
      status: 'active',
      spaceSelection: 'all',
      siteSelection: 'all',
      configuration: {},
      externalIds: [],
    });
    const err = await failureOf(install('once', 'org-a'));
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'conflict',
      message: 'The integration once is already installed in this organization',
    });
    await install('once', 'org-b');
    expect(await t.em().count(Installation, { integrationName: 'once' })).toBe(2);
    expect(await eventsOf(first.id)).toEqual([{ type: 'integration-installation.created', fields: undefined }]);
  });

  it('updates only what changed (external ids once each), names the fields, and deletes', async () => {
    await integrationNamed('upd');
    const created = await install('upd', 'org-c');
    const update = (props: Omit<Parameters<typeof installationUpdater>[1], 'installation'>) =>
      inTx(async (tx) =>
        installationUpdater(tx, { installation: await tx.findOneOrFail(Installation, { id: created.id }), ...props }),
      );
    await update({ configuration: {}, space_selection: 'all', externalIds: [] });
    await update({ configuration: { key: 'v' }, externalIds: ['x', 'x', 'y'], site_selection: 'selected' });
    await update({ externalIds: ['x', 'y'], space_selection: 'selected' });
    expect(await t.em().findOneOrFail(Installation, { id: created.id })).toMatchObject({
      configuration: { key: 'v' },
      externalIds: ['x', 'y'],
      spaceSelection: 'selected',
      siteSelection: 'selected',
    });
    await inTx(async (tx) =>
      installationDeleter(tx, { installation: await tx.findOneOrFail(Installation, { id: created.id }) }),
    );
    expect(await t.em().count(Installation, { id: created.id })).toBe(0);
    expect(await eventsOf(created.id)).toEqual([
      { type: 'integration-installation.created', fields: undefined },
      { type: 'integration-installation.updated', fields: ['configuration', 'externalIds', 'siteSelection'] },
      { type: 'integration-installation.updated', fields: ['spaceSelection'] },
      { type: 'integration-installation.deleted', fields: undefined },
    ]);
  });
});
