import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ops } from '@quire/contracts';
import { eventually, natsAvailable, userActor } from '@quire/kit/testing';
import { startSitesAndContentOverNats } from '../../test-support.ts';

const hasNats = await natsAvailable();

describe.skipIf(!hasNats)('site spaces follow their spaces over real NATS JetStream', () => {
  let p: Awaited<ReturnType<typeof startSitesAndContentOverNats>>;
  const both = userActor('both', [
    { organization: 'org-a', role: 'admin' },
    { organization: 'org-b', role: 'admin' },
  ]);

  beforeAll(async () => {
    p = await startSitesAndContentOverNats('sitesflow');
  });
  afterAll(async () => p?.close());

  const siteSpaces = async (org: string, siteId: string) =>
    (await p.sites.call(ops.listSiteSpaces, { organizationId: org, siteId }, both)).items.map((s) => [
      s.space?.id,
      s.default,
    ]);

  it('drops a transferred or purged space from the sites of its former organization; the default moves to a sibling', async () => {
    const a = await p.content.call(ops.createSpace, { organizationId: 'org-a', title: 'Leaves' }, both);
    const b = await p.content.call(ops.createSpace, { organizationId: 'org-a', title: 'Stays' }, both);
    const c = await p.content.call(ops.createSpace, { organizationId: 'org-a', title: 'Purged' }, both);
    const site = await p.sites.call(
      ops.createSite,
      { organizationId: 'org-a', title: 'Flow', spaces: [a.id, b.id, c.id] },
      both,
    );
    expect(await siteSpaces('org-a', site.id)).toEqual([
      [a.id, true],
      [b.id, false],
      [c.id, false],
    ]);

    await p.content.call(ops.transferSpace, { spaceId: a.id, organization: 'org-b' }, both);
    await eventually(
      async () => ((await siteSpaces('org-a', site.id)).length === 2 ? true : undefined),
      10_000,
      'transferred away',
    );
    expect(await siteSpaces('org-a', site.id)).toEqual([
      [b.id, true],
      [c.id, false],
    ]);

    await p.content.call(ops.deleteSpaceById, { spaceId: c.id }, both);
    await p.content.svc.deps.orm.em
      .getConnection()
      .execute(`update content.space set deleted_at = now() - interval '8 days' where id = ?`, [c.id]);
    await p.content.svc.jobs!.enqueue('content-purge-spaces');
    await eventually(
      async () => {
        const rows = await p.sites.svc.deps.orm.em
          .getConnection()
          .execute<{ n: number }[]>(`select count(*)::int as n from sites.site_space where space_id = ?`, [c.id]);
        return rows[0]!.n === 0 ? true : undefined;
      },
      10_000,
      'purged',
    );
    expect(await siteSpaces('org-a', site.id)).toEqual([[b.id, true]]);
    const updates = await p.sites.outboxEvents('site.updated');
    expect(updates.filter((e) => (e.data as { site: string }).site === site.id).length).toBeGreaterThanOrEqual(2);
  });

  it('drops the sites of a deleted organization', async () => {
    const s = await p.content.call(ops.createSpace, { organizationId: 'org-b', title: 'B space' }, both);
    const site = await p.sites.call(ops.createSite, { organizationId: 'org-b', title: 'Doomed', spaces: [s.id] }, both);
    const link = await p.sites.call(
      ops.createSiteShareLink,
      { organizationId: 'org-b', siteId: site.id, name: 'L' },
      both,
    );
    await p.contentBus.publish('org-admin.organization.deleted', {
      id: randomUUID(),
      type: 'organization.deleted',
      occurredAt: new Date().toISOString(),
      data: { organization: 'org-b' },
    });
    await eventually(
      async () =>
        (await p.sites.call(ops.listSites, { organizationId: 'org-b' }, both)).count === 0 ? true : undefined,
      10_000,
      'sites dropped',
    );
    const rows = await p.sites.svc.deps.orm.em
      .getConnection()
      .execute<{ n: number }[]>(
        `select (select count(*) from sites.site_space where site_id = ?)::int + (select count(*) from sites.share_link where id = ?)::int as n`,
        [site.id, link.id],
      );
    expect(rows[0]!.n).toBe(0);
    expect((await p.sites.outboxEvents('site.deleted')).map((e) => (e.data as { site: string }).site)).toContain(
      site.id,
    );
  });
});
