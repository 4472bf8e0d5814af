import { describe, expect, it } from 'vitest';
import { apiError, mergeChanges, useCast } from './harness.ts';

const { p, acme, reader, other } = useCast({ reader: ['rita@acme.io', 'read'] });

/** Pages written into a space through a change request, merged; resolves to the merged revision. */
async function publish(spaceId: string, pages: { title: string; markdown: string }[]): Promise<string> {
  const api = p.client(acme.token);
  const changes = pages.map((pg) => ({
    operation: 'insert_page',
    title: pg.title,
    document: { markdown: pg.markdown },
  }));
  return (await mergeChanges(api, spaceId, changes, 'Write')).revision;
}

describe('search (through the gateway, official client)', () => {
  it('finds a merged page by a stemmed word within a second, a title match ranked above a body match', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Manual' })).data;
    await publish(space.id, [
      {
        title: 'Shipping notes',
        markdown:
          'Every package ships with a manifest.\n\n## Tracking parcels\n\nCouriers scan the parcel at each depot.\n',
      },
      { title: 'Parcels', markdown: 'What a parcel is.' },
    ]);
    const merged = Date.now();
    let items: Awaited<ReturnType<typeof api.spaces.searchSpaceContent>>['data']['items'] = [];
    while (items.length < 2 && Date.now() - merged < 1_000) {
      items = (await api.spaces.searchSpaceContent(space.id, { query: 'parcelling' })).data.items;
      if (items.length < 2) await new Promise((r) => setTimeout(r, 20));
    }
    expect(Date.now() - merged).toBeLessThan(1_000);
    expect(items.map((i) => i.title)).toEqual(['Parcels', 'Shipping notes']);
    expect(items[0]).toMatchObject({
      rank: 1,
      resultType: 'page',
      path: 'parcels',
      urls: { app: `http://quire.test/o/${acme.organization.id}/s/${space.id}/parcels` },
    });
    expect(items[1]!.sections).toEqual([
      expect.objectContaining({
        id: 'tracking-parcels',
        title: 'Tracking parcels',
        path: 'shipping-notes#tracking-parcels',
        body: 'Couriers scan the parcel at each depot.',
      }),
    ]);
    expect(items[0]!.score).toBeGreaterThan(items[1]!.score);

    // Paging with the client: one result per page, each once.
    const first = (await api.spaces.searchSpaceContent(space.id, { query: 'parcel', limit: 1 })).data;
    expect(first.count).toBe(2);
    const second = (
      await api.spaces.searchSpaceContent(space.id, { query: 'parcel', limit: 1, page: first.next!.page })
    ).data;
    expect([...first.items, ...second.items].map((i) => i.title)).toEqual(['Parcels', 'Shipping notes']);
    expect(second.next).toBeUndefined();
  });

  it('searches the organization: only the spaces the caller can read, grouped by space', async () => {
    const api = p.client(acme.token);
    const open = (await api.orgs.createSpace(acme.organization.id, { title: 'Open handbook' })).data;
    const closed = (await api.orgs.createSpace(acme.organization.id, { title: 'Board room' })).data;
    await api.spaces.updateSpaceById(closed.id, { defaultLevel: null } as never);
    const [a, b] = [
      await publish(open.id, [{ title: 'Holidays', markdown: 'Vacation policy for everyone.' }]),
      await publish(closed.id, [{ title: 'Salaries', markdown: 'Vacation payouts, confidential.' }]),
    ];
    for (const [space, revision] of [
      [open.id, a],
      [closed.id, b],
    ] as const) {
      const deadline = Date.now() + 5_000;
      while (
        (
          await p.sql<{ revision_id: string }>('select revision_id from content.search_space where space_id = $1', [
            space,
          ])
        )[0]?.revision_id !== revision
      ) {
        if (Date.now() > deadline) throw new Error('not indexed in time');
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    const all = (await api.orgs.searchOrganizationContent(acme.organization.id, { query: 'vacations' })).data;
    expect(all.count).toBe(2);
    expect(all.items.map((s) => [s.type, s.title]).sort()).toEqual([
      ['space', 'Board room'],
      ['space', 'Open handbook'],
    ]);

    const theirs = (
      await p.client(reader.token).orgs.searchOrganizationContent(acme.organization.id, { query: 'vacations' })
    ).data;
    expect(theirs.count).toBe(1);
    expect(theirs.items).toEqual([
      expect.objectContaining({
        type: 'space',
        id: open.id,
        title: 'Open handbook',
        pages: [expect.objectContaining({ title: 'Holidays', rank: 1 })],
      }),
    ]);
    expect(
      (await apiError(p.client(reader.token).spaces.searchSpaceContent(closed.id, { query: 'vacations' }))).code,
    ).toBe(404);
    expect(
      (
        await apiError(
          p.client(other.token).orgs.searchOrganizationContent(acme.organization.id, { query: 'vacations' }),
        )
      ).code,
    ).toBe(404);
    expect(
      (await apiError(p.client(other.token).spaces.searchSpaceContent(open.id, { query: 'vacations' }))).code,
    ).toBe(404);
  });

  it('answers 400 in the error shape for a missing or over-long query', async () => {
    const space = (await p.client(acme.token).orgs.createSpace(acme.organization.id, { title: 'Errors' })).data;
    for (const path of [`/spaces/${space.id}/search`, `/orgs/${acme.organization.id}/search`]) {
      const missing = await p.get(acme.token, path);
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: { code: 400, message: expect.stringMatching(/query/) } });
      const long = await p.get(acme.token, `${path}?query=${'a'.repeat(513)}`);
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ error: { code: 400, message: expect.stringMatching(/query/) } });
      expect((await p.get(acme.token, `${path}?query=${'a'.repeat(512)}`)).status).toBe(200);
      expect((await p.get(acme.token, `${path}?query=x&page=bm9wZQ`)).body).toEqual({
        error: { code: 400, message: 'Invalid `page`: not a cursor of this list' },
      });
    }
  });

  it('appears in the OpenAPI document with GitBook operation ids', async () => {
    const doc = (await (await fetch(`${p.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/v1/spaces/{spaceId}/search']?.get?.operationId).toBe('searchSpaceContent');
    expect(doc.paths['/v1/orgs/{organizationId}/search']?.get?.operationId).toBe('searchOrganizationContent');
  });
});
