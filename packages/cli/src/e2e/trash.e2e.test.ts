import { beforeAll, describe, expect, it } from 'vitest';
import { addUser, type Boot, bootstrap, http, usePlatform } from './harness.ts';

// The organization's trash (Quire-only, issue 40 §1): GET /v1/orgs/{organizationId}/trash/spaces.
describe('the trash of an organization through the gateway', () => {
  const p = usePlatform();
  let acme: Boot;
  let beta: Boot;
  let reader: string;
  let editor: string;

  beforeAll(async () => {
    acme = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
    beta = await bootstrap(p, 'Beta', 'bob@beta.io', 'Bob');
    reader = (await addUser(p, acme.organization.id, 'rita@acme.io', 'read')).token;
    editor = (await addUser(p, acme.organization.id, 'ed@acme.io', 'edit', 'Ed')).token;
  });

  it('lists the deleted spaces each caller may restore, with who deleted them and when they go', async () => {
    const ann = http(p, acme.token);
    const org = acme.organization.id;
    const trash = `/v1/orgs/${org}/trash/spaces`;
    const doomed = (await ann('POST', `/v1/orgs/${org}/spaces`, { title: 'Doomed' })).json;
    const shared = (await ann('POST', `/v1/orgs/${org}/spaces`, { title: 'Shared' })).json;
    expect((await ann('GET', trash)).json).toEqual({ count: 0, items: [] });

    expect((await ann('DELETE', `/v1/spaces/${doomed.id}`)).status).toBe(205);
    expect((await ann('DELETE', `/v1/spaces/${shared.id}`)).status).toBe(205);
    const listed = await ann('GET', trash);
    expect(listed.status).toBe(200);
    expect(listed.json.count).toBe(2);
    const [first, second] = listed.json.items;
    expect([first.title, second.title]).toEqual(['Shared', 'Doomed']);
    expect(second).toMatchObject({ object: 'space', id: doomed.id, deletedBy: { object: 'user', displayName: 'Ann' } });
    expect(Date.parse(second.purgeAt) - Date.parse(second.deletedAt)).toBe(7 * 24 * 3600 * 1_000);
    const paged = await ann('GET', `${trash}?limit=1`);
    expect(paged.json.items.map((s: { id: string }) => s.id)).toEqual([shared.id]);
    expect((await ann('GET', `${trash}?limit=1&page=${paged.json.next.page}`)).json.items[0].id).toBe(doomed.id);

    // Members who are not admins of a space see none of it; another organization's token: 404; bad input: 400.
    expect((await http(p, reader)('GET', trash)).json).toEqual({ count: 0, items: [] });
    expect((await http(p, editor)('GET', trash)).json).toEqual({ count: 0, items: [] });
    const elsewhere = await http(p, beta.token)('GET', trash);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json).toEqual({ error: { code: 404, message: expect.stringContaining('Organization') } });
    const bad = await ann('GET', `${trash}?limit=nope`);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('limit');
    expect((await ann('GET', `${trash}?page=not-a-cursor`)).status).toBe(400);

    // Restored: back in the organization, out of the trash.
    expect((await ann('POST', `/v1/spaces/${doomed.id}/restore`)).status).toBe(200);
    expect((await ann('GET', trash)).json.items.map((s: { id: string }) => s.id)).toEqual([shared.id]);
    // A space deleted more than 7 days ago cannot be restored: it is not listed.
    await p.sql(`update content.space set deleted_at = now() - interval '8 days' where id = $1`, [shared.id]);
    expect((await ann('GET', trash)).json).toEqual({ count: 0, items: [] });
  });

  it('documents the operation as Quire-only in /v1/openapi.json', async () => {
    const spec = (await http(p, null)('GET', '/v1/openapi.json')).json;
    const op = spec.paths['/v1/orgs/{organizationId}/trash/spaces'].get;
    expect(op.operationId).toBe('listDeletedSpacesInOrganization');
    expect(op.summary).toMatch(/^Quire-only: /);
  });
});
