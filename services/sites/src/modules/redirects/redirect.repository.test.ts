import { describe, expect, it } from 'vitest';
import { ops, type SiteRedirectDestination } from '@quire/contracts';
import { buildSpace, userActor } from '@quire/kit/testing';
import {
  redirectCreator,
  redirectPublisher,
  redirectUpdater,
  redirectUpserter,
} from '../../commands/redirect-commands.ts';
import type { ISite } from '../sites/site.entity.ts';
import { siteRepository } from '../sites/site.repository.ts';
import { useSitesAndContent } from '../../test-support.ts';
import { SiteRedirect } from './redirect.entity.ts';
import { findSiteRedirect } from './redirect.repository.ts';

const ORG = 'org-rd';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const p = useSitesAndContent('redirect-repo');

const pages: Record<string, string> = { 'page-1': 'getting-started/install' };
const pagePath = async (_space: string, pageId: string) => pages[pageId] ?? null;
const find = (siteId: string, source: string) => findSiteRedirect(p.sites.em(), siteId, source, pagePath);

async function twoSpaceSite() {
  const a = await buildSpace(p.content, { org: ORG, title: 'Guide', as: admin });
  const b = await buildSpace(p.content, { org: ORG, title: 'API Reference', as: admin });
  const dto = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Docs', spaces: [a.id, b.id] }, admin);
  const spaces = await p.sites.call(ops.listSiteSpaces, { organizationId: ORG, siteId: dto.id }, admin);
  const site = (await siteRepository.findIn(p.sites.em(), ORG, dto.id))!;
  return { site, guide: spaces.items[0]!, api: spaces.items[1]! };
}

const create = (
  site: ISite,
  source: string,
  destination: SiteRedirectDestination,
  more: { draft?: boolean; captureWildcard?: boolean; permanent?: boolean } = {},
) =>
  p.sites.em().transactional((tx) =>
    redirectCreator(tx, {
      site,
      fields: { source, destination, draft: false, captureWildcard: false, permanent: false, ...more },
    }),
  );

describe('findSiteRedirect', () => {
  it('follows live redirects to site spaces, pages and external URLs; exact sources before wildcards', async () => {
    const { site, guide, api } = await twoSpaceSite();
    await create(site, '/old-api', { kind: 'site-space', siteSpaceId: api.id }, { permanent: true });
    await create(site, '/old-guide', { kind: 'site-space', siteSpaceId: guide.id });
    await create(site, '/install', { kind: 'site-page', siteSpaceId: api.id, pageId: 'page-1' });
    await create(
      site,
      '/blog/*',
      { kind: 'external', url: 'https://blog.example.com/posts' },
      { captureWildcard: true },
    );
    await create(site, '/blog/keep', { kind: 'site-space', siteSpaceId: guide.id });
    await create(site, '/legacy*', { kind: 'site-space', siteSpaceId: api.id });

    expect(await find(site.id, '/old-api')).toEqual({ target: '/api-reference', permanent: true });
    expect(await find(site.id, 'old-api/?utm=1')).toEqual({ target: '/api-reference', permanent: true });
    expect(await find(site.id, '/old-guide')).toEqual({ target: '/', permanent: false });
    expect(await find(site.id, '/install')).toEqual({
      target: '/api-reference/getting-started/install',
      permanent: false,
    });
    expect(await find(site.id, '/blog/2024/hello')).toEqual({
      target: 'https://blog.example.com/posts/2024/hello',
      permanent: false,
    });
    expect(await find(site.id, '/blog/keep')).toEqual({ target: '/', permanent: false });
    expect(await find(site.id, '/legacy-things/a')).toEqual({ target: '/api-reference', permanent: false });
    expect(await find(site.id, '/blog')).toBeNull();
    expect(await find(site.id, '/nothing')).toBeNull();
  });

  it('never applies drafts until published, and answers null once the destination is gone', async () => {
    const { site, api } = await twoSpaceSite();
    await create(site, '/draft', { kind: 'site-space', siteSpaceId: api.id }, { draft: true });
    expect(await find(site.id, '/draft')).toBeNull();
    await p.sites.em().transactional((tx) => redirectPublisher(tx, { site, source: '/draft' }));
    expect(await find(site.id, '/draft')).toEqual({ target: '/api-reference', permanent: false });

    await create(site, '/missing-page', { kind: 'site-page', siteSpaceId: api.id, pageId: 'page-deleted' });
    expect(await find(site.id, '/missing-page')).toBeNull();
    await p.sites.call(ops.deleteSiteSpaceById, { organizationId: ORG, siteId: site.id, siteSpaceId: api.id }, admin);
    expect(await find(site.id, '/draft')).toBeNull();
  });

  it('keeps one redirect per source: racing creates resolve in PostgreSQL (one wins, one conflict), upserts replace', async () => {
    const { site, api, guide } = await twoSpaceSite();
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => create(site, '/race', { kind: 'site-space', siteSpaceId: api.id })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ reason: 'conflict' });

    const up = await p.sites.em().transactional((tx) =>
      redirectUpserter(tx, {
        site,
        fields: {
          source: '/race',
          draft: false,
          captureWildcard: false,
          destination: { kind: 'site-space', siteSpaceId: guide.id },
        },
      }),
    );
    expect(up.created).toBe(false);
    expect(await find(site.id, '/race')).toEqual({ target: '/', permanent: false });

    // Two redirects moved onto one free source at once: the unique key lets one through, the other is a conflict.
    const dest = { kind: 'site-space' as const, siteSpaceId: api.id };
    const movers = await Promise.all(['/m1', '/m2', '/m3'].map((source) => create(site, source, dest)));
    const moved = await Promise.allSettled(
      movers.map((redirect) =>
        p.sites.em().transactional(async (tx) =>
          redirectUpdater(tx, {
            redirect: (await tx.findOne(SiteRedirect, { id: redirect.id }))!,
            patch: { source: '/target' },
          }),
        ),
      ),
    );
    expect(moved.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of moved.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ reason: 'conflict' });
  });
});
