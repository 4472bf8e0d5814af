import { describe, expect, it } from 'vitest';
import { useWebSite } from '@quire/kit/testing';
import { http, mergeChanges, useCast } from './harness.ts';

// GET /v1/spaces/{spaceId}/revisions (Quire-only, docs/api-reference.md): the space's history through the gateway.

const site = useWebSite({
  '/notes/':
    '<!doctype html><html><head><title>Notes</title></head><body><main><h1>Notes</h1><p>Kept.</p></main></body></html>',
});
const { p, acme, reader, other } = useCast(
  { reader: ['rita@acme.io', 'read'] },
  { env: { QUIRE_ALLOW_PRIVATE_FETCH: '1' } },
);

describe('the history of a space (through the gateway)', () => {
  it('lists every revision that was the content, newest first, paged; a reader reads it, another organization not', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Diary' })).data;
    const call = http(p, acme.token);
    const first = await mergeChanges(
      api,
      space.id,
      [{ operation: 'insert_page', title: 'Monday', document: { markdown: 'Rain.' } }],
      'Monday',
    );
    // An edit through the API without a change request of the caller's: an import into the space.
    const imported = await call('POST', `/v1/spaces/${space.id}/content/import`, {
      url: `${site.origin}/notes/`,
      source: 'website',
    });
    expect(imported.status).toBe(201);

    const all = await call('GET', `/v1/spaces/${space.id}/revisions`);
    expect(all.status).toBe(200);
    const { items, count, next } = all.json;
    expect({ count, next }).toEqual({ count: 3, next: undefined });
    expect(items.map((r: { type: string }) => r.type)).toEqual(['merge', 'merge', 'edits']);
    expect(items[0].id).toBe(imported.json.revision);
    expect(items[0].mergedFrom.subject).toBe(`Import of ${site.origin}/notes/`);
    expect(items[0].pages.map((pg: { title: string }) => pg.title)).toEqual(['Monday', 'Notes']);
    expect(items[1]).toMatchObject({ id: first.revision, mergedFrom: { number: 1, subject: 'Monday' } });
    expect(items[2].parents).toEqual([]);
    // The object getRevisionById answers (read through the official client), with the change request it merged.
    const { mergedFrom: _merged, ...read } = items[1];
    expect((await api.spaces.getRevisionById(space.id, items[1].id)).data).toEqual(read);

    // Paged: one at a time, the cursor of the last one leads to the next.
    const one = await call('GET', `/v1/spaces/${space.id}/revisions?limit=2`);
    expect(one.json.items.map((r: { id: string }) => r.id)).toEqual(items.slice(0, 2).map((r: { id: string }) => r.id));
    const two = await call('GET', `/v1/spaces/${space.id}/revisions?limit=2&page=${one.json.next.page}`);
    expect(two.json).toMatchObject({ count: 3, items: [{ id: items[2].id }] });
    expect(two.json.next).toBeUndefined();

    // Bad paging is a 400 naming the parameter.
    const badPage = await call('GET', `/v1/spaces/${space.id}/revisions?page=nope`);
    expect(badPage.status).toBe(400);
    expect(badPage.json.error.message).toMatch(/page/);
    const badLimit = await call('GET', `/v1/spaces/${space.id}/revisions?limit=101`);
    expect(badLimit.status).toBe(400);
    expect(badLimit.json.error.message).toMatch(/limit/);

    // A `read` member sees it; another organization's token and an unknown space are 404.
    expect((await http(p, reader.token)('GET', `/v1/spaces/${space.id}/revisions`)).json.count).toBe(3);
    const hidden = await http(p, other.token)('GET', `/v1/spaces/${space.id}/revisions`);
    expect(hidden.status).toBe(404);
    expect(hidden.json.error.code).toBe(404);
    expect((await call('GET', '/v1/spaces/nope/revisions')).status).toBe(404);
  });
});
