import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Events, ops, type EventEnvelope, type Space } from '@quire/contracts';
import { InProcessBus } from '@quire/kit';
import { contentService, loadContentConfig } from '@quire/content';
import { loadSitesConfig, sitesService } from '@quire/sites';
import {
  buildSpace,
  createTestDatabase,
  eventually,
  orgAdmin,
  startTestService,
  testLogger,
  userActor,
  type TestDatabase,
  type TestService,
} from '@quire/kit/testing';
import { loadIntegrationsConfig } from '../../env.ts';
import { integrationsService } from '../../service.ts';
import { failureMessage, publication } from '../integrations/integration.fixtures.ts';

/**
 * integrations, content and sites on one test database: integrations asks content which spaces a caller can view,
 * sites which sites.
 */
let db: TestDatabase;
let t: TestService;
let content: TestService;
let sites: TestService;
/** The bus integrations reads: the tests publish content's and sites' deletions on it. */
const bus = new InProcessBus(testLogger());
beforeAll(async () => {
  db = await createTestDatabase('integrations-content');
  content = await startTestService(contentService, loadContentConfig, db);
  sites = await startTestService(sitesService, loadSitesConfig, db);
  t = await startTestService(integrationsService, loadIntegrationsConfig, db, { bus });
  t.svc.deps.peers.setEndpoint('content', content.url);
  t.svc.deps.peers.setEndpoint('sites', sites.url);
  sites.svc.deps.peers.setEndpoint('content', content.url);
  content.svc.deps.peers.setEndpoint('sites', sites.url);
});
afterAll(async () => {
  await t?.close();
  await sites?.close();
  await content?.close();
  await db?.drop();
});

const block = { id: 'chart', title: 'Chart', description: 'A live chart' };
const reader = userActor('rita', [{ organization: 'shop', role: 'read' }]);
const stranger = orgAdmin('other');

describe('space installations and the integrations of a space', () => {
  let docs: Space;
  let blog: Space;
  let installationId: string;
  const ref = () => ({ integrationName: 'charts', installationId });

  it('lists nothing installed, then an organization installation for all spaces', async () => {
    docs = await buildSpace(content, { org: 'shop', title: 'Docs' });
    blog = await buildSpace(content, { org: 'shop', title: 'Blog' });
    await t.call(
      ops.publishIntegration,
      { integrationName: 'charts', ...publication('dev', { blocks: [block] }) },
      orgAdmin('dev'),
    );
    await t.call(ops.publishIntegration, { integrationName: 'plain', ...publication('dev') }, orgAdmin('dev'));
    expect(await t.call(ops.listSpaceIntegrationsBlocks, { spaceId: docs.id }, reader)).toEqual([]);

    installationId = (
      await t.call(ops.installIntegration, { integrationName: 'charts', organization: 'shop' }, orgAdmin('shop'))
    ).id;
    await t.call(ops.installIntegration, { integrationName: 'plain', organization: 'shop' }, orgAdmin('shop'));
    expect(await t.call(ops.listSpaceIntegrationsBlocks, { spaceId: docs.id }, reader)).toEqual([
      { name: 'charts', blocks: [block] },
    ]);
    const inSpace = await t.call(ops.listSpaceIntegrations, { spaceId: blog.id }, reader);
    expect(inSpace.items.map((i) => i.name)).toEqual(['charts', 'plain']);
    expect(
      (await t.call(ops.listSpaceIntegrations, { spaceId: blog.id, search: 'pla' }, reader)).items.map((i) => i.name),
    ).toEqual(['plain']);
    const inOrg = await t.call(ops.listOrganizationIntegrations, { organizationId: 'shop', blocks: true }, reader);
    expect(inOrg.items.map((i) => i.name)).toEqual(['charts']);

    // Who cannot view the space or is not a member of the organization: 404.
    expect(await failureMessage(t.call(ops.listSpaceIntegrationsBlocks, { spaceId: docs.id }, stranger))).toBe(
      'Space not found',
    );
    expect(
      await failureMessage(t.call(ops.listOrganizationIntegrations, { organizationId: 'shop' }, stranger)),
    ).toMatch(/not found/);
  });

  it('installs on a space: the selection becomes `selected`, other spaces lose it, the count is real', async () => {
    const si = await t.call(ops.installIntegrationOnSpace, { ...ref(), space: docs.id }, orgAdmin('shop'));
    expect(si).toMatchObject({
      integration: 'charts',
      installation: installationId,
      space: docs.id,
      status: 'active',
      configuration: {},
    });
    expect(await t.call(ops.getIntegrationInstallationById, ref(), orgAdmin('shop'))).toMatchObject({
      space_selection: 'selected',
      spaces: 1,
    });
    expect(await t.call(ops.listSpaceIntegrationsBlocks, { spaceId: docs.id }, reader)).toEqual([
      { name: 'charts', blocks: [block] },
    ]);
    expect(await t.call(ops.listSpaceIntegrationsBlocks, { spaceId: blog.id }, reader)).toEqual([]);

    expect(
      await failureMessage(t.call(ops.installIntegrationOnSpace, { ...ref(), space: docs.id }, orgAdmin('shop'))),
    ).toMatch(/already installed on this space/);
    const elsewhere = await buildSpace(content, { org: 'other' });
    expect(
      await failureMessage(t.call(ops.installIntegrationOnSpace, { ...ref(), space: elsewhere.id }, orgAdmin('shop'))),
    ).toBe(`Invalid request: space: no space ${elsewhere.id} in this organization that you can view`);
    expect(
      await failureMessage(
        t.call(
          ops.installIntegrationOnSpace,
          { ...ref(), space: blog.id },
          userActor('e', [{ organization: 'shop', role: 'edit' }]),
        ),
      ),
    ).toMatch(/needs the `admin` role/);
    expect(await failureMessage(t.call(ops.installIntegrationOnSpace, { ...ref(), space: blog.id }, stranger))).toBe(
      'Installation not found',
    );
  });

  it('lists (extended: the spaces), gets, updates and uninstalls a space installation', async () => {
    await t.call(ops.installIntegrationOnSpace, { ...ref(), space: blog.id }, orgAdmin('shop'));
    const list = await t.call(ops.listIntegrationInstallationSpaces, ref(), orgAdmin('shop'));
    expect(list).toMatchObject({ count: 2, items: [{ space: docs.id }, { space: blog.id }] });
    const extended = await t.call(
      ops.listIntegrationInstallationSpaces,
      { ...ref(), extended: true },
      orgAdmin('shop'),
    );
    expect(extended.items.map((i) => typeof i.space === 'object' && i.space.title)).toEqual(['Docs', 'Blog']);
    expect(
      await t.call(ops.getIntegrationSpaceInstallation, { ...ref(), spaceId: blog.id }, orgAdmin('shop')),
    ).toMatchObject({ space: blog.id });

    const updated = await t.call(
      ops.updateIntegrationSpaceInstallation,
      { ...ref(), spaceId: blog.id, configuration: { color: 'red' }, externalIds: ['x', 'x'] },
      orgAdmin('shop'),
    );
    expect(updated).toMatchObject({ configuration: { color: 'red' }, externalIds: ['x'] });

    await t.call(ops.uninstallIntegrationFromSpace, { ...ref(), spaceId: blog.id }, orgAdmin('shop'));
    expect(
      await failureMessage(
        t.call(ops.getIntegrationSpaceInstallation, { ...ref(), spaceId: blog.id }, orgAdmin('shop')),
      ),
    ).toBe('Space installation not found');
    expect(await t.call(ops.getIntegrationInstallationById, ref(), orgAdmin('shop'))).toMatchObject({ spaces: 1 });

    // Uninstalling the integration from the organization takes its space installations with it.
    await t.call(ops.uninstallIntegration, ref(), orgAdmin('shop'));
    expect(await t.call(ops.listSpaceIntegrationsBlocks, { spaceId: docs.id }, reader)).toEqual([]);
  });
});

describe('site installations and the integrations of a site', () => {
  it('installs on a site of the organization: its list, the site selection, get, update, uninstall', async () => {
    const block = { id: 'badge', title: 'Badge' };
    await t.call(
      ops.publishIntegration,
      { integrationName: 'badges', ...publication('dev', { blocks: [block] }) },
      orgAdmin('dev'),
    );
    const installationId = (
      await t.call(ops.installIntegration, { integrationName: 'badges', organization: 'web' }, orgAdmin('web'))
    ).id;
    const ref = { integrationName: 'badges', installationId };
    const docs = await sites.call(ops.createSite, { organizationId: 'web', title: 'Docs site' }, orgAdmin('web'));
    const blog = await sites.call(ops.createSite, { organizationId: 'web', title: 'Blog site' }, orgAdmin('web'));
    const elsewhere = await sites.call(ops.createSite, { organizationId: 'other', title: 'Other' }, orgAdmin('other'));
    const member = userActor('mia', [{ organization: 'web', role: 'read' }]);
    const inSite = async (siteId: string) =>
      (await t.call(ops.listSiteIntegrations, { organizationId: 'web', siteId }, member)).items.map((i) => i.name);
    expect(await inSite(blog.id)).toEqual(['badges']);

    const installed = await t.call(ops.installIntegrationOnSite, { ...ref, siteId: docs.id }, orgAdmin('web'));
    expect(installed).toMatchObject({
      integration: 'badges',
      installation: installationId,
      site: docs.id,
      status: 'active',
    });
    expect(await t.call(ops.getIntegrationInstallationById, ref, orgAdmin('web'))).toMatchObject({
      site_selection: 'selected',
      space_selection: 'all',
      spaces: 0,
    });
    expect(await inSite(docs.id)).toEqual(['badges']);
    expect(await inSite(blog.id)).toEqual([]);
    expect(
      await failureMessage(t.call(ops.installIntegrationOnSite, { ...ref, siteId: elsewhere.id }, orgAdmin('web'))),
    ).toBe(`Invalid request: siteId: no site ${elsewhere.id} in this organization that you can view`);
    expect(
      await failureMessage(t.call(ops.installIntegrationOnSite, { ...ref, siteId: docs.id }, orgAdmin('web'))),
    ).toMatch(/already installed on this site/);
    expect(
      await failureMessage(t.call(ops.listSiteIntegrations, { organizationId: 'web', siteId: docs.id }, stranger)),
    ).toMatch(/not found/);

    const extended = await t.call(ops.listIntegrationInstallationSites, { ...ref, extended: true }, orgAdmin('web'));
    expect(extended.items.map((i) => typeof i.site === 'object' && i.site.title)).toEqual(['Docs site']);
    expect(
      await t.call(ops.getIntegrationSiteInstallation, { ...ref, siteId: docs.id }, orgAdmin('web')),
    ).toMatchObject({ site: docs.id });
    expect(
      await t.call(
        ops.updateIntegrationSiteInstallation,
        { ...ref, siteId: docs.id, externalIds: ['s1'] },
        orgAdmin('web'),
      ),
    ).toMatchObject({ externalIds: ['s1'] });
    await t.call(ops.uninstallIntegrationFromSite, { ...ref, siteId: docs.id }, orgAdmin('web'));
    expect(
      await failureMessage(t.call(ops.getIntegrationSiteInstallation, { ...ref, siteId: docs.id }, orgAdmin('web'))),
    ).toBe('Site installation not found');
  });
});

describe('a purged space, a deleted site', () => {
  it('take their installations with them', async () => {
    await t.call(ops.publishIntegration, { integrationName: 'gone', ...publication('dev') }, orgAdmin('dev'));
    const installationId = (
      await t.call(ops.installIntegration, { integrationName: 'gone', organization: 'shop' }, orgAdmin('shop'))
    ).id;
    const ref = { integrationName: 'gone', installationId };
    const space = await buildSpace(content, { org: 'shop' });
    const site = await sites.call(ops.createSite, { organizationId: 'shop', title: 'Gone site' }, orgAdmin('shop'));
    await t.call(ops.installIntegrationOnSpace, { ...ref, space: space.id }, orgAdmin('shop'));
    await t.call(ops.installIntegrationOnSite, { ...ref, siteId: site.id }, orgAdmin('shop'));
    const publish = (subject: string, type: string, data: Record<string, string>) =>
      bus.publish(subject, {
        id: `${type}-${data.space ?? data.site}`,
        type,
        occurredAt: new Date().toISOString(),
        data,
      } satisfies EventEnvelope);
    await publish(Events.spacePurged.subject, 'space.purged', { space: space.id, organization: 'shop' });
    await publish(Events.siteDeleted.subject, 'site.deleted', { site: site.id, organization: 'shop' });
    const counts = async () =>
      [
        (await t.call(ops.listIntegrationInstallationSpaces, ref, orgAdmin('shop'))).count,
        (await t.call(ops.listIntegrationInstallationSites, ref, orgAdmin('shop'))).count,
      ].join();
    await eventually(async () => (await counts()) === '0,0');
    expect(await t.call(ops.getIntegrationInstallationById, ref, orgAdmin('shop'))).toMatchObject({ spaces: 0 });
  });
});
