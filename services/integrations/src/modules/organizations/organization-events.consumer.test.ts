import { describe, expect, it } from 'vitest';
import { Events, ops, type EventEnvelope } from '@quire/contracts';
import { InProcessBus, sql } from '@quire/kit';
import { eventually, orgAdmin, testLogger, useTestService } from '@quire/kit/testing';
import { loadIntegrationsConfig } from '../../env.ts';
import { integrationsService } from '../../service.ts';

const bus = new InProcessBus(testLogger());
const t = useTestService(integrationsService, loadIntegrationsConfig, { label: 'integrations-org-events', bus });
const manifest = (organization: string) => ({
  title: 'Thing',
  description: 'd',
  script: 's',
  scopes: [],
  organization,
});

describe('organization.deleted', () => {
  it('unpublishes the organization’s integrations (their installations too) and deletes its installations elsewhere', async () => {
    await t.call(ops.publishIntegration, { integrationName: 'doomed', ...manifest('dead') }, orgAdmin('dead'));
    await t.call(ops.publishIntegration, { integrationName: 'survivor', ...manifest('alive') }, orgAdmin('alive'));
    const inDoomed = await t.call(
      ops.installIntegration,
      { integrationName: 'doomed', organization: 'alive' },
      orgAdmin('alive'),
    );
    const inDead = await t.call(
      ops.installIntegration,
      { integrationName: 'survivor', organization: 'dead' },
      orgAdmin('dead'),
    );
    const kept = await t.call(
      ops.installIntegration,
      { integrationName: 'survivor', organization: 'alive' },
      orgAdmin('alive'),
    );
    await bus.publish(Events.organizationDeleted.subject, {
      id: 'e1',
      type: 'organization.deleted',
      occurredAt: new Date().toISOString(),
      data: { organization: 'dead' },
    } satisfies EventEnvelope);
    const names = async () =>
      (await sql<{ name: string }>(t.em(), `select name from :schema.integration order by name`)).map((r) => r.name);
    await eventually(async () => (await names()).join() === 'survivor');
    const installations = await sql<{ id: string }>(
      t.em(),
      `select id from :schema.integration_installation order by id`,
    );
    expect(installations.map((r) => r.id)).toEqual([kept.id]);
    expect((await t.outboxEvents('integration.unpublished')).map((e) => e.data)).toEqual([
      { integration: 'doomed', organization: 'dead', installations: [inDoomed.id] },
    ]);
    expect((await t.outboxEvents('integration-installation.deleted')).map((e) => e.data)).toEqual([
      { integration: 'survivor', installation: inDead.id, organization: 'dead' },
    ]);
  });
});
