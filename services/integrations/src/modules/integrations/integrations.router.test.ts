import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { orgAdmin, useTestService, userActor } from '@quire/kit/testing';
import { sql } from '@quire/kit';
import { loadIntegrationsConfig } from '../../env.ts';
import { integrationsService } from '../../service.ts';
import { failureMessage, publication } from './integration.fixtures.ts';

const t = useTestService(integrationsService, loadIntegrationsConfig, {
  label: 'integrations-router',
  env: { QUIRE_SECRETS_KEY: 'k'.repeat(40) },
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
).toString('base64');

describe('publishing', () => {
  it('publishes version 1, republishes version 2 and keeps the history', async () => {
    const first = await t.call(
      ops.publishIntegration,
      { integrationName: 'hist', ...publication('o1'), icon: PNG },
      orgAdmin('o1'),
    );
    expect(first).toMatchObject({
      object: 'integration',
      name: 'hist',
      version: 1,
      visibility: 'public',
      target: 'all',
      verified: false,
      owner: { id: 'o1' },
      permissions: { admin: true, install: true },
    });
    expect(first.urls.icon).toMatch(/^http:\/\/quire\.test\/v1\/downloads\//);
    const second = await t.call(
      ops.publishIntegration,
      { integrationName: 'hist', ...publication('o1', { title: 'Renamed' }) },
      orgAdmin('o1'),
    );
    expect(second).toMatchObject({ version: 2, title: 'Renamed' });
    expect(second.urls.icon).toBeUndefined();
    const versions = await sql<{ version: number }>(
      t.em(),
      `select version from :schema.integration_version where integration_name = 'hist' order by version`,
    );
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(
      (await t.outboxEvents('integration.published'))
        .filter((e) => (e.data as { integration: string }).integration === 'hist')
        .map((e) => (e.data as { version: number }).version),
    ).toEqual([1, 2]);
  });

  it('refuses a name taken by another organization (409), a non-admin (403), a non-member (404)', async () => {
    await t.call(ops.publishIntegration, { integrationName: 'taken', ...publication('o1') }, orgAdmin('o1'));
    expect(
      await failureMessage(
        t.call(ops.publishIntegration, { integrationName: 'taken', ...publication('o2') }, orgAdmin('o2')),
      ),
    ).toMatch(/taken by another organization/);
    expect(
      await failureMessage(
        t.call(
          ops.publishIntegration,
          { integrationName: 'x1', ...publication('o1') },
          userActor('u', [{ organization: 'o1', role: 'edit' }]),
        ),
      ),
    ).toMatch(/needs the `admin` role/);
    expect(
      await failureMessage(
        t.call(ops.publishIntegration, { integrationName: 'x1', ...publication('o1') }, orgAdmin('o2')),
      ),
    ).toBe('Organization not found');
  });

  it('checks images from their bytes and configurations as schemas', async () => {
    const text = Buffer.from('hello, not an image').toString('base64');
    expect(
      await failureMessage(
        t.call(ops.publishIntegration, { integrationName: 'img', ...publication('o1'), icon: text }, orgAdmin('o1')),
      ),
    ).toMatch(/icon: not an image/);
    expect(
      await failureMessage(
        t.call(
          ops.publishIntegration,
          { integrationName: 'img', ...publication('o1'), previewImages: [PNG, text] },
          orgAdmin('o1'),
        ),
      ),
    ).toMatch(/previewImages\.1: not an image/);
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');
    expect(
      (
        await t.call(
          ops.publishIntegration,
          { integrationName: 'img', ...publication('o1'), icon: svg, previewImages: [PNG] },
          orgAdmin('o1'),
        )
      ).previewImages,
    ).toHaveLength(1);
    const configurations = {
      account: { properties: { n: { type: 'number' as const, default: 3 } }, required: ['missing'] },
    };
    expect(
      await failureMessage(
        t.call(
          ops.publishIntegration,
          { integrationName: 'cfg', ...publication('o1'), configurations },
          orgAdmin('o1'),
        ),
      ),
    ).toMatch(/configurations\.account\.required: `missing` is not a declared property/);
  });

  it('stores secrets sealed (AES-256-GCM), never returns them, keeps them when a republication omits them', async () => {
    const published = await t.call(
      ops.publishIntegration,
      { integrationName: 'sec', ...publication('o1'), secrets: { API_KEY: 'hunter2-very-secret' } },
      orgAdmin('o1'),
    );
    expect(JSON.stringify(published)).not.toContain('hunter2');
    const [row] = await sql<{ secrets: string }>(t.em(), `select secrets from :schema.integration where name = 'sec'`);
    expect(row!.secrets).toMatch(/^v1\.[0-9a-f]{16}\./);
    expect(row!.secrets).not.toContain('hunter2');
    await t.call(ops.publishIntegration, { integrationName: 'sec', ...publication('o1') }, orgAdmin('o1'));
    const [again] = await sql<{ secrets: string }>(
      t.em(),
      `select secrets from :schema.integration where name = 'sec'`,
    );
    expect(again!.secrets).toBe(row!.secrets);
    const outbox = JSON.stringify(await t.outboxEvents());
    expect(outbox).not.toContain('hunter2');
  });
});

describe('visibility and permissions', () => {
  it('hides private integrations from outsiders, lists unlisted ones only for their owner members', async () => {
    await t.call(
      ops.publishIntegration,
      { integrationName: 'vis-private', ...publication('v1', { visibility: 'private' }) },
      orgAdmin('v1'),
    );
    await t.call(
      ops.publishIntegration,
      { integrationName: 'vis-unlisted', ...publication('v1', { visibility: 'unlisted' }) },
      orgAdmin('v1'),
    );
    const outsider = userActor('out', [{ organization: 'v2', role: 'read' }]);
    expect(await failureMessage(t.call(ops.getIntegrationByName, { integrationName: 'vis-private' }, outsider))).toBe(
      'Integration not found',
    );
    expect(await t.call(ops.getIntegrationByName, { integrationName: 'vis-unlisted' }, outsider)).toMatchObject({
      permissions: { admin: false, install: false },
    });
    const theirs = await t.call(ops.listIntegrations, { owner: 'v1' }, outsider);
    expect(theirs.items.map((i) => i.name)).toEqual([]);
    const mine = await t.call(
      ops.listIntegrations,
      { owner: 'v1' },
      userActor('m', [{ organization: 'v1', role: 'read' }]),
    );
    expect(mine.items.map((i) => [i.name, i.permissions.admin])).toEqual([
      ['vis-private', false],
      ['vis-unlisted', false],
    ]);
  });
});

describe('unpublishing', () => {
  it('deletes the integration and its installations, with integration.unpublished naming them', async () => {
    await t.call(ops.publishIntegration, { integrationName: 'gone', ...publication('u1') }, orgAdmin('u1'));
    const inst = await t.call(ops.installIntegration, { integrationName: 'gone', organization: 'u2' }, orgAdmin('u2'));
    expect(await failureMessage(t.call(ops.unpublishIntegration, { integrationName: 'gone' }, orgAdmin('u2')))).toMatch(
      /Unpublishing the integration needs the `admin` role/,
    );
    await t.call(ops.unpublishIntegration, { integrationName: 'gone' }, orgAdmin('u1'));
    expect(await failureMessage(t.call(ops.getIntegrationByName, { integrationName: 'gone' }, orgAdmin('u1')))).toBe(
      'Integration not found',
    );
    const [event] = (await t.outboxEvents('integration.unpublished')).filter(
      (e) => (e.data as { integration: string }).integration === 'gone',
    );
    expect(event!.data).toEqual({ integration: 'gone', organization: 'u1', installations: [inst.id] });
    expect(await sql(t.em(), `select 1 from :schema.integration_installation where id = ?`, [inst.id])).toEqual([]);
  });
});
