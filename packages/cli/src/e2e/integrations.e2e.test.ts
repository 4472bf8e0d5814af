import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import {
  GitBookAPI,
  IntegrationCategory,
  IntegrationScope,
  IntegrationTarget,
  IntegrationVisibility,
} from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quire/kit/testing';
import { startStandalone, type Standalone } from '../standalone.ts';
import { apiError, runCliCaptured } from './harness.ts';

/** Every JSON log line the platform writes (debug level), kept in memory: secrets must never appear in one. */
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

const SECRET = 'sk_live_do-not-leak-4242';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

let db: TestDatabase;
let platform: Standalone;
let dataDir: string;
interface Boot {
  organization: { id: string };
  token: string;
}
let acme: Boot;
let beta: Boot;
let rita: { token: string };
const client = (token: string) => new GitBookAPI({ authToken: token, endpoint: platform.url });
const cli = async (args: string[]) => {
  const { code, stdout } = await runCliCaptured(args, { QUIRE_URL: platform.url, QUIRE_DATA_DIR: dataDir });
  expect(code).toBe(0);
  return JSON.parse(stdout);
};

beforeAll(async () => {
  db = await createTestDatabase('e2e-integrations');
  dataDir = mkdtempSync(join(tmpdir(), 'quire-integrations-'));
  platform = await startStandalone(
    {
      DATABASE_URL: db.url,
      QUIRE_DATA_DIR: dataDir,
      PORT: '0',
      QUIRE_PUBLIC_URL: 'http://quire.test',
      QUIRE_SECRETS_KEY: 's'.repeat(48),
    },
    { log: pino({ level: 'debug' }, sink) },
  );
  acme = await cli(['bootstrap', '--org', 'Acme', '--email', 'ann@acme.io']);
  beta = await cli(['bootstrap', '--org', 'Beta', '--email', 'bob@beta.io']);
  rita = await cli(['users', 'add', '--org', acme.organization.id, '--email', 'rita@acme.io', '--role', 'read']);
}, 60_000);
afterAll(async () => {
  await platform?.stop();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const manifest = (organization: string, extra: Record<string, unknown> = {}) => ({
  title: 'Figma embeds',
  description: 'Embed Figma frames',
  script: 'export default createIntegration({})',
  scopes: [IntegrationScope.SpaceContentRead],
  organization,
  ...extra,
});

describe('integrations through the gateway, with the official client', () => {
  it('publishes, republishes (version bump) and serves the icon by a signed link', async () => {
    const ann = client(acme.token);
    const { data: v1 } = await ann.integrations.publishIntegration(
      'figma',
      manifest(acme.organization.id, {
        icon: PNG.toString('base64'),
        categories: [IntegrationCategory.Content],
        blocks: [{ id: 'frame', title: 'Frame', urlUnfurl: ['https://www.figma.com/file/*'] }],
        secrets: { FIGMA_TOKEN: SECRET },
      }),
    );
    expect(v1).toMatchObject({
      object: 'integration',
      name: 'figma',
      version: 1,
      visibility: 'public',
      owner: { id: acme.organization.id },
      permissions: { admin: true, install: true },
    });
    const icon = await fetch(v1.urls.icon!.replace('http://quire.test', platform.url));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer())).toEqual(PNG);

    const { data: v2 } = await ann.integrations.publishIntegration(
      'figma',
      manifest(acme.organization.id, {
        title: 'Figma',
        blocks: [{ id: 'frame', title: 'Frame', urlUnfurl: ['https://www.figma.com/file/*'] }],
        categories: [IntegrationCategory.Content],
      }),
    );
    expect(v2).toMatchObject({ version: 2, title: 'Figma' });
    expect(JSON.stringify([v1, v2])).not.toContain(SECRET);
  });

  it('lists with every filter, paged', async () => {
    const bob = client(beta.token);
    await bob.integrations.publishIntegration(
      'beta-analytics',
      manifest(beta.organization.id, {
        title: 'Beta analytics',
        categories: [IntegrationCategory.Analytics],
        scopes: [IntegrationScope.SiteViewsRead],
        target: IntegrationTarget.Site,
        contentSources: [{ id: 'src', title: 'Source', configuration: { componentId: 'cfg' } }],
      }),
    );
    const ann = client(acme.token);
    const names = async (query: Parameters<typeof ann.integrations.listIntegrations>[0]) =>
      (await ann.integrations.listIntegrations(query)).data.items.map((i) => i.name);
    expect(await names({})).toEqual(['beta-analytics', 'figma']);
    expect(await names({ search: 'FIG' })).toEqual(['figma']);
    expect(await names({ category: IntegrationCategory.Analytics })).toEqual(['beta-analytics']);
    expect(await names({ blockDomain: 'figma.com' })).toEqual(['figma']);
    expect(await names({ blocks: true })).toEqual(['figma']);
    expect(await names({ blocks: false })).toEqual(['beta-analytics']);
    expect(await names({ contentSources: true })).toEqual(['beta-analytics']);
    expect(await names({ owner: beta.organization.id })).toEqual(['beta-analytics']);
    expect(await names({ scope: IntegrationScope.SpaceContentRead })).toEqual(['figma']);
    expect(await names({ target: IntegrationTarget.Space })).toEqual(['figma']);
    expect(await names({ target: IntegrationTarget.Site })).toEqual(['beta-analytics', 'figma']);
    const first = (await ann.integrations.listIntegrations({ limit: 1 })).data;
    expect(first).toMatchObject({ count: 2, items: [{ name: 'beta-analytics' }] });
    const second = (await ann.integrations.listIntegrations({ limit: 1, page: first.next!.page })).data;
    expect(second.items.map((i) => i.name)).toEqual(['figma']);
    expect(second.next).toBeUndefined();
  });

  it('keeps private integrations to their organization, unlisted ones out of lists for others', async () => {
    const ann = client(acme.token);
    await ann.integrations.publishIntegration(
      'acme-internal',
      manifest(acme.organization.id, { visibility: IntegrationVisibility.Private }),
    );
    await ann.integrations.publishIntegration(
      'acme-hidden',
      manifest(acme.organization.id, { visibility: IntegrationVisibility.Unlisted }),
    );
    const bob = client(beta.token);
    expect(await apiError(bob.integrations.getIntegrationByName('acme-internal'))).toEqual({
      code: 404,
      message: 'Integration not found',
    });
    expect((await bob.integrations.getIntegrationByName('acme-hidden')).data.permissions).toEqual({
      admin: false,
      install: true,
    });
    expect(
      (await bob.integrations.listIntegrations({ owner: acme.organization.id })).data.items.map((i) => i.name),
    ).toEqual(['figma']);
    const ritaSees = (await client(rita.token).integrations.listIntegrations({ owner: acme.organization.id })).data
      .items;
    expect(ritaSees.map((i) => [i.name, i.permissions])).toEqual([
      ['acme-hidden', { admin: false, install: false }],
      ['acme-internal', { admin: false, install: false }],
      ['figma', { admin: false, install: false }],
    ]);
  });

  it('refuses another organization, a name taken, a non-admin; limits answer 400 naming the field', async () => {
    const bob = client(beta.token);
    expect(await apiError(bob.integrations.publishIntegration('figma', manifest(beta.organization.id)))).toEqual({
      code: 409,
      message: 'The integration name `figma` is taken by another organization',
    });
    expect(await apiError(bob.integrations.publishIntegration('mine', manifest(acme.organization.id)))).toEqual({
      code: 404,
      message: 'Organization not found',
    });
    expect(await apiError(bob.integrations.unpublishIntegration('figma'))).toMatchObject({ code: 403 });
    expect(
      await apiError(client(rita.token).integrations.publishIntegration('figma', manifest(acme.organization.id))),
    ).toEqual({
      code: 403,
      message: 'Publishing an integration for the organization needs the `admin` role on the organization',
    });
    const ann = client(acme.token);
    expect(
      await apiError(
        ann.integrations.publishIntegration('x', manifest(acme.organization.id, { title: 'x'.repeat(31) })),
      ),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: title: Too big/) });
    expect(
      await apiError(
        ann.integrations.publishIntegration(
          'x',
          manifest(acme.organization.id, { script: 'x'.repeat(512 * 1024 + 1) }),
        ),
      ),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: script: Too big/) });
    expect(
      await apiError(
        ann.integrations.publishIntegration(
          'x',
          manifest(acme.organization.id, {
            previewImages: [
              PNG.toString('base64'),
              PNG.toString('base64'),
              PNG.toString('base64'),
              PNG.toString('base64'),
            ],
          }),
        ),
      ),
    ).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Invalid request: previewImages: Too big/),
    });
    expect(
      await apiError(
        ann.integrations.publishIntegration(
          'x',
          manifest(acme.organization.id, { icon: Buffer.from('GIF87 nope').toString('base64') }),
        ),
      ),
    ).toEqual({ code: 400, message: 'Invalid request: icon: not an image (PNG, JPEG, GIF, WebP or SVG expected)' });
    expect(
      await apiError(ann.integrations.publishIntegration('bad name!', manifest(acme.organization.id))),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: integrationName/) });
    const raw = await fetch(`${platform.url}/v1/integrations/x`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: { code: 400, message: expect.stringMatching(/^Invalid request: /) } });
  });

  it('installation lifecycle with the configuration checked, then unpublish removes the installations', async () => {
    const ann = client(acme.token);
    await ann.integrations.publishIntegration(
      'slack',
      manifest(acme.organization.id, {
        configurations: {
          account: {
            properties: { channel: { type: 'string', title: 'Channel' }, digest: { type: 'boolean', default: false } },
            required: ['channel'],
          },
        },
      }),
    );
    const bob = client(beta.token);
    const installed = await bob.integrations.installIntegration('slack', { organization: beta.organization.id });
    expect(installed.status).toBe(201);
    const id = installed.data.id;
    expect(installed.data).toMatchObject({ status: 'active', target: { organization: beta.organization.id } });
    expect(
      await apiError(bob.integrations.installIntegration('slack', { organization: acme.organization.id })),
    ).toEqual({ code: 404, message: 'Organization not found' });
    expect(
      await apiError(bob.integrations.updateIntegrationInstallation('slack', id, { configuration: { digest: true } })),
    ).toEqual({ code: 400, message: 'Invalid request: configuration: `channel` is required' });
    expect(
      await apiError(bob.integrations.updateIntegrationInstallation('slack', id, { configuration: { channel: 7 } })),
    ).toEqual({ code: 400, message: 'Invalid request: configuration.channel: must be string' });
    const updated = await bob.integrations.updateIntegrationInstallation('slack', id, {
      configuration: { channel: '#docs' },
      externalIds: ['T123'],
    });
    expect(updated.data).toMatchObject({ configuration: { channel: '#docs' }, externalIds: ['T123'] });
    expect(
      (await ann.integrations.listIntegrationInstallations('slack', { externalId: 'T123' })).data.items.map(
        (i) => i.id,
      ),
    ).toEqual([id]);
    expect((await ann.integrations.listIntegrationInstallations('slack', { externalId: 'nope' })).data.count).toBe(0);
    expect((await bob.integrations.getIntegrationInstallationById('slack', id)).data.id).toBe(id);
    expect(await apiError(client(rita.token).integrations.getIntegrationInstallationById('slack', id))).toEqual({
      code: 404,
      message: 'Installation not found',
    });

    const second = await bob.integrations.installIntegration('figma', { organization: beta.organization.id });
    expect((await bob.integrations.uninstallIntegration('figma', second.data.id)).status).toBe(204);

    expect((await ann.integrations.unpublishIntegration('slack')).status).toBe(204);
    expect(await apiError(bob.integrations.getIntegrationInstallationById('slack', id))).toEqual({
      code: 404,
      message: 'Integration not found',
    });
    expect(await apiError(ann.integrations.getIntegrationByName('slack'))).toEqual({
      code: 404,
      message: 'Integration not found',
    });
  });

  it('installs on a space: the space lists its integrations and their blocks for its readers', async () => {
    const ann = client(acme.token);
    const bob = client(beta.token);
    const readerOf = client(rita.token);
    const chart = { id: 'chart', title: 'Chart', description: 'A live chart' };
    await bob.integrations.publishIntegration('charts', manifest(beta.organization.id, { blocks: [chart] }));
    const docs = (await ann.orgs.createSpace(acme.organization.id, { title: 'Docs' })).data;
    const blog = (await ann.orgs.createSpace(acme.organization.id, { title: 'Blog' })).data;
    const betaSpace = (await bob.orgs.createSpace(beta.organization.id, { title: 'Beta docs' })).data;

    const installation = (await ann.integrations.installIntegration('charts', { organization: acme.organization.id }))
      .data;
    expect((await readerOf.spaces.listSpaceIntegrationsBlocks(blog.id)).data).toEqual([
      { name: 'charts', blocks: [chart] },
    ]);
    const onDocs = await ann.integrations.installIntegrationOnSpace('charts', installation.id, { space: docs.id });
    expect(onDocs.status).toBe(201);
    expect(onDocs.data).toMatchObject({ integration: 'charts', installation: installation.id, space: docs.id });
    expect((await ann.integrations.getIntegrationInstallationById('charts', installation.id)).data).toMatchObject({
      space_selection: 'selected',
      spaces: 1,
    });
    // Only the space it is installed on lists it now.
    expect((await readerOf.spaces.listSpaceIntegrationsBlocks(docs.id)).data).toEqual([
      { name: 'charts', blocks: [chart] },
    ]);
    expect((await readerOf.spaces.listSpaceIntegrationsBlocks(blog.id)).data).toEqual([]);
    expect((await readerOf.spaces.listSpaceIntegrations(docs.id)).data.items.map((i) => i.name)).toEqual(['charts']);
    expect(
      (await readerOf.orgs.listOrganizationIntegrations(acme.organization.id, { blocks: true })).data.items.map(
        (i) => i.name,
      ),
    ).toEqual(['charts']);

    const listed = await ann.integrations.listIntegrationInstallationSpaces('charts', installation.id, {
      extended: true,
    });
    expect(listed.data.items.map((i) => (typeof i.space === 'string' ? i.space : i.space.title))).toEqual(['Docs']);
    const updated = await ann.integrations.updateIntegrationSpaceInstallation('charts', installation.id, docs.id, {
      externalIds: ['E1'],
    });
    expect(updated.data.externalIds).toEqual(['E1']);

    // A read member cannot install; another organization's space is refused naming the field; a stranger sees nothing.
    expect(
      await apiError(readerOf.integrations.installIntegrationOnSpace('charts', installation.id, { space: blog.id })),
    ).toEqual({ code: 403, message: expect.stringMatching(/needs the `admin` role/) });
    expect(
      await apiError(ann.integrations.installIntegrationOnSpace('charts', installation.id, { space: betaSpace.id })),
    ).toEqual({
      code: 400,
      message: `Invalid request: space: no space ${betaSpace.id} in this organization that you can view`,
    });
    expect(await apiError(bob.spaces.listSpaceIntegrationsBlocks(docs.id))).toEqual({
      code: 404,
      message: 'Space not found',
    });
    expect(await apiError(bob.orgs.listOrganizationIntegrations(acme.organization.id))).toMatchObject({ code: 404 });

    expect((await ann.integrations.uninstallIntegrationFromSpace('charts', installation.id, docs.id)).status).toBe(205);
    expect(
      await apiError(ann.integrations.getIntegrationSpaceInstallation('charts', installation.id, docs.id)),
    ).toEqual({ code: 404, message: 'Space installation not found' });
    expect((await readerOf.spaces.listSpaceIntegrationsBlocks(docs.id)).data).toEqual([]);
  });

  it('installs on a site: the site lists its integrations for its readers', async () => {
    const ann = client(acme.token);
    await ann.integrations.publishIntegration('badges', manifest(acme.organization.id));
    const docs = (await ann.orgs.createSite(acme.organization.id, { title: 'Docs site' })).data;
    const blog = (await ann.orgs.createSite(acme.organization.id, { title: 'Blog site' })).data;
    const installation = (await ann.integrations.installIntegration('badges', { organization: acme.organization.id }))
      .data;
    const onDocs = await ann.integrations.installIntegrationOnSite('badges', installation.id, { siteId: docs.id });
    expect(onDocs.status).toBe(201);
    expect(onDocs.data).toMatchObject({ integration: 'badges', site: docs.id });
    expect((await ann.integrations.getIntegrationInstallationById('badges', installation.id)).data).toMatchObject({
      site_selection: 'selected',
    });
    const names = async (siteId: string) =>
      (await client(rita.token).orgs.listSiteIntegrations(acme.organization.id, siteId)).data.items.map((i) => i.name);
    expect(await names(docs.id)).toContain('badges');
    expect(await names(blog.id)).not.toContain('badges');
    const listed = await ann.integrations.listIntegrationInstallationSites('badges', installation.id, {
      extended: true,
    });
    expect(listed.data.items.map((i) => (typeof i.site === 'string' ? i.site : i.site.title))).toEqual(['Docs site']);
    expect(await apiError(client(beta.token).orgs.listSiteIntegrations(acme.organization.id, docs.id))).toMatchObject({
      code: 404,
    });
    expect((await ann.integrations.uninstallIntegrationFromSite('badges', installation.id, docs.id)).status).toBe(205);
    expect(await names(docs.id)).not.toContain('badges');
  });

  it('never writes a secret value to a log line (the publish line names the secrets only)', async () => {
    await client(acme.token).integrations.publishIntegration(
      'logged',
      manifest(acme.organization.id, { secrets: { FIGMA_TOKEN: SECRET } }),
    );
    expect(lines.filter((l) => l.includes(SECRET))).toEqual([]);
    const published = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'integration published' && l.integration === 'logged');
    expect(published).toMatchObject({ service: 'integrations', secrets: ['FIGMA_TOKEN=[redacted]'] });
  });
});
