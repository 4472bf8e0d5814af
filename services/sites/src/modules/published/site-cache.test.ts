import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Events, ops, type Actor } from '@quire/contracts';
import { InProcessBus, sql, sqlRun } from '@quire/kit';
import { buildSpace, eventually, testLogger, userActor } from '@quire/kit/testing';
import { startSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { clearSiteSnapshots } from './site-cache.ts';

/**
 * The published-site cache of a process (site-cache.ts): a cached page is served without reading the site's
 * structure again, and what changes — a merge, an unpublish here or in another process, a revoked share link —
 * shows at once (or on the change's event).
 */
const ORG = 'org-site-cache';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const gateway: Actor = { kind: 'service', service: 'gateway' };

let p: SitesPlatform;
let bus: InProcessBus;

beforeAll(async () => {
  bus = new InProcessBus(testLogger());
  p = await startSitesAndContent('site-cache', { bus, orgAdmin: true });
});
afterAll(async () => {
  await p?.close();
  await bus?.close();
});

/** A reader's GET of a path of the instance, as the gateway asks it. */
const open = (path: string, opts: { query?: Record<string, string>; cookies?: Record<string, string> } = {}) =>
  p.sites.call(
    ops.getPublishedSitePage,
    { host: 'quire.test', path, query: opts.query ?? {}, cookies: opts.cookies ?? {} },
    gateway,
  );

async function writePage(spaceId: string, change: Record<string, unknown>): Promise<void> {
  const cr = await p.content.call(ops.createChangeRequest, { spaceId, subject: 'Write' }, admin);
  await p.content.call(
    ops.updateChangeRequestContent,
    { spaceId, changeRequestId: cr.id, changes: [change] } as never,
    admin,
  );
  await p.content.call(ops.mergeChangeRequest, { spaceId, changeRequestId: cr.id }, admin);
}

/** A published site of one space with one page saying `text`. */
async function publishedSite(title: string, text: string, visibility?: 'share-link') {
  const space = await buildSpace(p.content, { org: ORG, title: `${title} space`, as: admin });
  await writePage(space.id, { operation: 'insert_page', title: 'Welcome', document: { markdown: text } });
  const site = await p.sites.call(
    ops.createSite,
    { organizationId: ORG, title, spaces: [space.id], ...(visibility ? { visibility } : {}) },
    admin,
  );
  await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
  // The setup's events are all delivered (each evicts the site, a space's for `UNSETTLED_MS`): from now on the site
  // may be cached at once, and only what a test does changes that.
  await eventually(async () => {
    for (const svc of [p.content, p.sites]) {
      const [row] = await sql<{ n: number }>(
        svc.em(),
        'select count(*)::int as n from :schema.outbox where published_at is null',
      );
      if (row!.n > 0) return false;
    }
    return true;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  clearSiteSnapshots();
  return { spaceId: space.id, siteId: site.id, path: `/sites/${site.basename}` };
}

/** The statements the sites service runs while `work` runs, on the site tables. */
async function siteStatements(work: () => Promise<unknown>): Promise<string[]> {
  const connection = p.sites.svc.deps.orm.em.getConnection();
  const spy = vi.spyOn(connection, 'execute');
  try {
    await work();
    return spy.mock.calls
      .map((c) => String(typeof c[0] === 'string' ? c[0] : JSON.stringify(c[0])))
      .filter((q) => /"?sites"?\."?(site|site_section|site_space|content_space)"?\b/.test(q));
  } finally {
    spy.mockRestore();
  }
}

describe('the published-site cache', () => {
  it('serves a cached page without reading the site again, and shows a merge once its event is in', async () => {
    const s = await publishedSite('Cache merge', 'First words.');
    let first!: Awaited<ReturnType<typeof open>>;
    // The first request reads the site and its structure; the next ones are answered from memory.
    expect(await siteStatements(async () => (first = await open(s.path)))).not.toEqual([]);
    expect(first.status).toBe(200);
    expect(first.body).toContain('First words.');
    // Once the events of the setup are in (each evicts the site), requests run no statement on the site tables.
    await eventually(async () => (await siteStatements(() => open(s.path))).length === 0);
    expect(await siteStatements(() => open(s.path))).toEqual([]);
    const pages = await p.content.call(ops.listPages, { spaceId: s.spaceId }, admin);
    const page = (pages.pages[0] as { id: string }).id;
    await writePage(s.spaceId, { operation: 'update_page', page, document: { markdown: 'Second words.' } });
    const after = await eventually(async () => {
      const r = await open(s.path);
      return r.body.includes('Second words.') && r;
    });
    expect(after.body).not.toContain('First words.');
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  it('stops serving a site unpublished in this process at once', async () => {
    const s = await publishedSite('Cache unpublish', 'Soon gone.');
    expect((await open(s.path)).status).toBe(200);
    expect((await open(s.path)).status).toBe(200);
    await p.sites.call(ops.unpublishSite, { organizationId: ORG, siteId: s.siteId }, admin);
    const gone = await open(s.path);
    expect(gone.status).toBe(404);
    expect(gone.body).not.toContain('Soon gone.');
    await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: s.siteId }, admin);
    expect((await open(s.path)).body).toContain('Soon gone.');
  });

  it('stops serving a site another process unpublished once its event arrives', async () => {
    const s = await publishedSite('Cache elsewhere', 'Served from memory.');
    expect((await open(s.path)).status).toBe(200);
    // Another process's change: the row changes, this process still holds the site until the event.
    await sqlRun(p.sites.em(), `update :schema.site set published = false where id = ?`, [s.siteId]);
    expect((await open(s.path)).status).toBe(200);
    await bus.publish(Events.siteUnpublished.subject, {
      id: randomUUID(),
      type: Events.siteUnpublished.type,
      occurredAt: new Date().toISOString(),
      data: { site: s.siteId, organization: ORG },
    });
    const gone = await open(s.path);
    expect(gone.status).toBe(404);
    expect(gone.body).not.toContain('Served from memory.');
  });

  it('refuses a revoked share link at once, though the site was cached', async () => {
    const s = await publishedSite('Cache share', 'For partners.', 'share-link');
    const link = await p.sites.call(
      ops.createSiteShareLink,
      { organizationId: ORG, siteId: s.siteId, name: 'Partner' },
      admin,
    );
    const key = new URL(link.urls.published!).searchParams.get('share')!;
    const opened = await open(s.path, { query: { share: key } });
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('For partners.');
    expect(opened.headers['cache-control']).toBe('private, no-store');
    expect((await open(s.path, { cookies: { quire_share: key } })).status).toBe(200);
    await p.sites.call(
      ops.updateSiteShareLinkById,
      { organizationId: ORG, siteId: s.siteId, shareLinkId: link.id, active: false },
      admin,
    );
    for (const r of [
      await open(s.path, { cookies: { quire_share: key } }),
      await open(s.path, { query: { share: key } }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).not.toContain('For partners.');
    }
  });

  it('shows a renamed space in the navigation once the projection has it', async () => {
    const s = await publishedSite('Cache titles', 'Titles.');
    const other = await buildSpace(p.content, { org: ORG, title: 'Second variant', as: admin });
    await p.sites.call(ops.addSpaceToSite, { organizationId: ORG, siteId: s.siteId, spaceId: other.id }, admin);
    clearSiteSnapshots();
    expect((await open(s.path)).body).toContain('Second variant');
    await eventually(async () => (await siteStatements(() => open(s.path))).length === 0);
    await p.content.call(ops.updateSpaceById, { spaceId: other.id, title: 'Renamed variant' }, admin);
    await eventually(async () => (await open(s.path)).body.includes('Renamed variant'));
  });
});
