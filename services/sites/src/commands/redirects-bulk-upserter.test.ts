import { describe, expect, it } from 'vitest';
import { ops, type SiteRedirectBulkItem, type SiteRedirectDestination } from '@quire/contracts';
import { invalid, type EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { SiteRedirect } from '../modules/redirects/redirect.entity.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { sitesService } from '../service.ts';
import { orgActors } from '../test-support.ts';
import { redirectsBulkUpserter } from './redirects-bulk-upserter.ts';

const ORG = 'org-bulk';
const { creator } = orgActors(ORG, 'org-elsewhere');
const t = useTestService(sitesService, loadSitesConfig, { label: 'redirects-bulk' });

/** A resolver as the router's: external URLs as they are; a destination naming nothing on the site is a 400. */
const resolve = async (destination: unknown, field: string): Promise<SiteRedirectDestination> => {
  const d = destination as SiteRedirectDestination;
  if (d.kind === 'external') return d;
  throw invalid(`${field}: no such destination on this site`);
};
const bulk = (siteId: string, items: SiteRedirectBulkItem[]) =>
  t
    .em()
    .transactional(async (tx: EntityManager) =>
      redirectsBulkUpserter(tx, { site: await tx.findOneOrFail(Site, { id: siteId }), items, resolve }),
    );
const external = (url: string) => ({ kind: 'external' as const, url });
const item = (source: string, over: Partial<Extract<SiteRedirectBulkItem, { destination: unknown }>> = {}) =>
  ({
    source,
    intent: 'live',
    captureWildcard: false,
    destination: external('https://x.test/'),
    ...over,
  }) as SiteRedirectBulkItem;

describe('redirectsBulkUpserter', () => {
  it('handles each item on its own, in order: an item that fails is its result, the others are written', async () => {
    const site = await t.call(ops.createSite, { organizationId: ORG, title: 'Bulk' }, creator);
    const first = await bulk(site.id, [
      item('/a'),
      item('/b', { intent: 'draft' }),
      item('/c', { destination: { kind: 'site-section', siteSectionId: 'nope' } }),
      { source: '/a', intent: 'publish' },
      item('/gone', { destination: null }),
      item('/a', { destination: external('https://y.test/'), permanent: false }),
    ]);
    expect(first.map((r) => ({ ...r, id: 'id' in r ? typeof r.id : undefined }))).toEqual([
      { status: 'created', source: '/a', draft: false, id: 'string' },
      { status: 'created', source: '/b', draft: true, id: 'string' },
      {
        status: 'error',
        source: '/c',
        draft: false,
        error: 'redirects.2.destination: no such destination on this site',
        id: undefined,
      },
      {
        status: 'error',
        source: '/a',
        draft: true,
        error: 'redirects.3.source: no draft redirect from /a',
        id: undefined,
      },
      {
        status: 'error',
        source: '/gone',
        draft: false,
        error: 'redirects.4.source: no live redirect from /gone',
        id: undefined,
      },
      { status: 'updated', source: '/a', draft: false, id: 'string' },
    ]);
    const second = await bulk(site.id, [{ source: '/b', intent: 'publish' }, item('/a', { destination: null })]);
    expect(second.map((r) => [r.status, r.source, r.draft])).toEqual([
      ['published', '/b', false],
      ['deleted', '/a', false],
    ]);
    const rows = await t.em().find(SiteRedirect, { siteId: site.id });
    expect(rows.map((r) => [r.source, r.draft, r.destination])).toEqual([['/b', false, external('https://x.test/')]]);
  });
});
