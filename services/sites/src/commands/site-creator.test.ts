import { describe, expect, it } from 'vitest';
import type { Space } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { SiteSpace } from '../modules/structure/structure.entity.ts';
import { sitesService } from '../service.ts';
import { siteCreator } from './site-creator.ts';

const ORG = 'org-site-creator';
const t = useTestService(sitesService, loadSitesConfig, { label: 'site-creator' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
let seq = 0;
/** A space as the content service answers it (only what the command reads is its own). */
const space = (title: string) =>
  ({ id: `sc-space-${++seq}`, organization: ORG, title, updatedAt: '2031-01-01T00:00:00.000Z' }) as Space;
const create = (title: string, spaces: Space[] = [], organizationId = ORG) =>
  inTx((tx) => siteCreator(tx, { organizationId, type: 'basic', title, visibility: 'public', spaces }));

describe('siteCreator', () => {
  it('creates an unpublished site whose basename, from its title, is free in the whole instance', async () => {
    const first = await create('Product Docs');
    const second = await create('Product docs!', [], 'another-org');
    const third = await create('');
    const rows = await t
      .em()
      .fork()
      .find(Site, { id: [first.id, second.id, third.id] }, { orderBy: { createdAt: 'asc' } });
    expect(Object.fromEntries(rows.map((s) => [s.id, s.basename]))).toEqual({
      [first.id]: 'product-docs',
      [second.id]: 'product-docs-2',
      [third.id]: 'site',
    });
    expect(await t.em().fork().findOneOrFail(Site, { id: first.id })).toMatchObject({
      organizationId: ORG,
      type: 'basic',
      visibility: 'public',
      published: false,
      hostname: null,
      hostnameVerified: false,
      adaptiveEnabled: false,
    });
  });

  it('adds each space once at the root in the order given, the first the default, and records site.created', async () => {
    const [guide, api] = [space('Guide'), space('API')];
    const site = await create('With spaces', [guide, api, guide]);
    const siteSpaces = await t
      .em()
      .fork()
      .find(SiteSpace, { siteId: site.id }, { orderBy: { order: 'asc' } });
    expect(siteSpaces.map((s) => [s.spaceId, s.path, s.isDefault, s.sectionId])).toEqual([
      [guide.id, 'guide', true, null],
      [api.id, 'api', false, null],
    ]);
    const created = (await t.outboxEvents('site.created')).map((e) => e.data as { site: string });
    expect(created.filter((d) => d.site === site.id)).toEqual([
      { site: site.id, organization: ORG, title: 'With spaces', spaces: [guide.id, api.id] },
    ]);
  });
});
