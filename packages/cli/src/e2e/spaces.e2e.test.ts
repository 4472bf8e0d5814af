import { MemberRole, SpaceEditMode } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { natsAvailable, TEST_NATS_URL } from '@quire/kit/testing';
import { addUser, apiError, type Boot, bootstrap, http, type Platform, type Seat, usePlatform } from './harness.ts';

const hasNats = await natsAvailable();

const projection = (p: Platform, spaceId: string) =>
  p.sql<{ organization_id: string; deleted_at: Date | null }>(
    'select organization_id, deleted_at from sites.content_space where id = $1',
    [spaceId],
  );

/** The space's projection polled (for `timeout` ms) until it holds what is asserted: its rows, organization, deletion. */
const projected = (p: Platform, spaceId: string, timeout = 5_000) => {
  type Row = Awaited<ReturnType<typeof projection>>[number];
  const poll = <T>(read: (rows: Row[]) => T) =>
    expect.poll(async () => read(await projection(p, spaceId)), { timeout });
  return {
    rows: () => poll((rows) => rows.length),
    organization: () => poll((rows) => rows[0]?.organization_id),
    deletedAt: () => poll((rows) => rows[0]?.deleted_at),
  };
};

/**
 * Two organizations: Acme (Ann admin, Rita `read`) and Beta (Bob admin; Ann is added there as admin, so
 * she may transfer between them). Bob's token is the "other organization" token for Acme's resources.
 */
async function setUp(p: Platform) {
  const acme: Boot = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
  const beta: Boot = await bootstrap(p, 'Beta', 'bob@beta.io', 'Bob');
  const rita = await addUser(p, acme.organization.id, 'rita@acme.io', 'read');
  await addUser(p, beta.organization.id, 'ann@acme.io', 'admin');
  return { acme, beta, rita };
}

describe('spaces and collections through the gateway (in-process bus)', () => {
  const p = usePlatform({ env: { QUIRE_PURGE_EVERY_MS: '300' } });
  let acme: Boot;
  let beta: Boot;
  let rita: Seat;

  beforeAll(async () => {
    ({ acme, beta, rita } = await setUp(p));
  });

  it('serves every space operation to the official client', async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const created = await api.orgs.createSpace(org, { title: 'Handbook', emoji: '📘' });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(created.data).toMatchObject({
      object: 'space',
      visibility: 'private',
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      urls: { location: `http://quire.test/v1/spaces/${id}`, app: `http://quire.test/o/${org}/s/${id}` },
    });

    const patch = {
      title: 'Company handbook',
      emoji: '📗',
      editMode: SpaceEditMode.Locked,
      defaultLevel: MemberRole.Read,
    };
    const patched = await api.spaces.updateSpaceById(id, patch);
    expect(patched.status).toBe(200);
    expect(patched.data).toMatchObject(patch);
    const published = await http(p, acme.token)('PATCH', `/v1/spaces/${id}`, { visibility: 'public' });
    expect(published.json.urls).toMatchObject({
      published: `http://quire.test/s/${id}`,
      public: `http://quire.test/s/${id}`,
    });

    const copy = await api.spaces.duplicateSpace(id);
    expect(copy.status).toBe(201);
    expect(copy.data).toMatchObject({
      title: 'Copy of Company handbook',
      emoji: '📗',
      visibility: 'public',
      defaultLevel: 'read',
      organization: org,
    });
    expect(copy.data.revision).not.toBe(created.data.revision);

    const col = (await api.orgs.createCollection(org, { title: 'Guides' })).data;
    const moved = await api.spaces.moveSpace(copy.data.id, { parent: col.id });
    expect(moved.status).toBe(200);
    expect(moved.data.parent).toBe(col.id);

    const deleted = await api.spaces.deleteSpaceById(copy.data.id);
    expect(deleted.status).toBe(205);
    expect(await deleted.text()).toBe('');
    expect((await api.spaces.getSpaceById(copy.data.id)).data.deletedAt).toEqual(expect.any(String));
    const restored = await api.spaces.restoreSpace(copy.data.id);
    expect(restored.status).toBe(200);
    expect(restored.data.deletedAt).toBeUndefined();

    const listed = await api.orgs.listSpacesInOrganizationById(org);
    expect(listed.data.items.map((s) => s.id)).toEqual(expect.arrayContaining([id, copy.data.id]));
    const mine = await api.orgs.listSpacesForOrganizationMember(org, acme.user.id, { order: 'asc' });
    expect(mine.data.items.map((i) => i.space.id)).toEqual(expect.arrayContaining([id, copy.data.id]));
    expect(mine.data.items.every((i) => i.permission === 'admin')).toBe(true);
  });

  it('serves every collection operation to the official client', async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const a = await api.orgs.createCollection(org, { title: 'Alpha' });
    expect(a.status).toBe(201);
    expect(a.data).toMatchObject({
      object: 'collection',
      title: 'Alpha',
      organization: org,
      defaultLevel: 'inherit',
      permissions: { view: true, admin: true, create: true, viewInviteLinks: true },
    });
    const nested = (await api.orgs.createCollection(org, { title: 'Alpha child', parent: a.data.id })).data;
    expect(nested.parent).toBe(a.data.id);
    const got = await api.collections.getCollectionById(a.data.id);
    expect(got.data.urls).toEqual({
      location: `http://quire.test/v1/collections/${a.data.id}`,
      app: `http://quire.test/o/${org}/c/${a.data.id}`,
    });
    const patched = await api.collections.updateCollectionById(a.data.id, {
      title: 'Alpha team',
      description: 'Everything Alpha',
      defaultLevel: MemberRole.Comment,
    });
    expect(patched.data).toMatchObject({
      title: 'Alpha team',
      description: 'Everything Alpha',
      defaultLevel: MemberRole.Comment,
    });

    const all = await api.orgs.listCollectionsInOrganizationById(org);
    expect(all.data.items.map((c) => c.id)).toEqual(expect.arrayContaining([a.data.id, nested.id]));
    const top = await api.orgs.listCollectionsInOrganizationById(org, { nested: false });
    expect(top.data.items.map((c) => c.id)).toContain(a.data.id);
    expect(top.data.items.map((c) => c.id)).not.toContain(nested.id);

    const s = (await api.orgs.createSpace(org, { title: 'In Alpha', parent: a.data.id })).data;
    const spaces = await api.collections.listSpacesInCollectionById(a.data.id);
    expect(spaces.data).toMatchObject({ count: 1, items: [{ id: s.id, parent: a.data.id }] });

    const b = (await api.orgs.createCollection(org, { title: 'Beta team' })).data;
    const moved = await api.collections.moveCollection(nested.id, { parent: b.id });
    expect(moved.data.parent).toBe(b.id);
    expect(await apiError(api.collections.moveCollection(b.id, { parent: nested.id }))).toMatchObject({
      code: 400,
      message: 'parent: a collection cannot move into itself or one of its sub-collections',
    });

    const del = await api.collections.deleteCollectionById(a.data.id);
    expect(del.status).toBe(205);
    expect(await apiError(api.collections.getCollectionById(a.data.id))).toMatchObject({ code: 404 });
    // Its space moved up to the top level, nothing lost.
    const after = (await api.spaces.getSpaceById(s.id)).data;
    expect(after.parent).toBeUndefined();

    const transferred = await api.collections.transferCollection(b.id, { organization: beta.organization.id });
    expect(transferred.data).toMatchObject({ id: b.id, organization: beta.organization.id });
    expect((await api.collections.getCollectionById(nested.id)).data).toMatchObject({
      organization: beta.organization.id,
      parent: b.id,
    });
  });

  it('answers 400 with the error shape for every limit', async () => {
    const call = http(p, acme.token);
    const org = acme.organization.id;
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Limits' })).json;
    const col = (await call('POST', `/v1/orgs/${org}/collections`, { title: 'Limits' })).json;
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', `/v1/orgs/${org}/spaces`, { title: 'x'.repeat(51) }, /title: Too big/],
      ['POST', `/v1/orgs/${org}/spaces`, { emoji: 'x'.repeat(51) }, /emoji: Too big/],
      ['PATCH', `/v1/spaces/${space.id}`, { title: 'x'.repeat(51) }, /title: Too big/],
      ['PATCH', `/v1/spaces/${space.id}`, { emoji: 'e'.repeat(51) }, /emoji: Too big/],
      ['PATCH', `/v1/spaces/${space.id}`, { editMode: 'frozen' }, /editMode/],
      ['PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'owner' }, /defaultLevel/],
      [
        'PATCH',
        `/v1/spaces/${space.id}`,
        { visibility: 'in-collection' },
        /^visibility: `in-collection` is only for a space inside a collection$/,
      ],
      ['POST', `/v1/orgs/${org}/collections`, { title: 'x'.repeat(51) }, /title: Too big/],
      ['PATCH', `/v1/collections/${col.id}`, { description: 'd'.repeat(101) }, /description: Too big/],
      ['PATCH', `/v1/collections/${col.id}`, { title: 't'.repeat(51) }, /title: Too big/],
      ['POST', `/v1/spaces/${space.id}/move`, {}, /parent: give `parent`, `position` or both/],
      ['POST', `/v1/spaces/${space.id}/move`, { position: { after: { type: 'space' } } }, /position/],
      ['POST', `/v1/spaces/${space.id}/move`, { parent: 'nope' }, /^parent: no collection nope in this organization$/],
      ['POST', `/v1/collections/${col.id}/move`, { parent: col.id }, /^parent: a collection cannot move into itself/],
      ['POST', `/v1/spaces/${space.id}/transfer`, {}, /organization/],
      ['GET', `/v1/orgs/${org}/spaces?limit=1001`, undefined, /limit: Too big/],
      ['GET', `/v1/orgs/${org}/collections?limit=1001`, undefined, /limit: Too big/],
      ['GET', `/v1/orgs/${org}/collections?nested=maybe`, undefined, /nested/],
      ['GET', `/v1/collections/${col.id}/spaces?limit=1001`, undefined, /limit: Too big/],
      ['GET', `/v1/orgs/${org}/members/${acme.user.id}/spaces?limit=1001`, undefined, /limit: Too big/],
      ['GET', `/v1/orgs/${org}/members/${acme.user.id}/spaces?order=sideways`, undefined, /order/],
      ['GET', `/v1/orgs/${org}/spaces?page=WyJ4Il0`, undefined, /Invalid `page`/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(Object.keys(res.json)).toEqual(['error']);
      expect(res.json.error.code).toBe(400);
      expect(res.json.error.message, `${method} ${path}`).toMatch(message);
    }
    // At the limit is fine.
    expect(
      (await call('PATCH', `/v1/spaces/${space.id}`, { title: 'x'.repeat(50), emoji: 'e'.repeat(50) })).status,
    ).toBe(200);
    expect(
      (await call('PATCH', `/v1/collections/${col.id}`, { title: 't'.repeat(50), description: 'd'.repeat(100) }))
        .status,
    ).toBe(200);
  });

  it('deletes (205), restores within 7 days, answers 412 after, and purges for good', async () => {
    const call = http(p, acme.token);
    const org = acme.organization.id;
    const recent = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Recent' })).json;
    const old = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Old' })).json;
    await projected(p, old.id).rows().toBe(1);
    for (const s of [recent, old]) {
      const del = await call('DELETE', `/v1/spaces/${s.id}`);
      expect(del.status).toBe(205);
      expect(del.text).toBe('');
    }
    const list = await call('GET', `/v1/orgs/${org}/spaces?limit=1000`);
    expect(list.json.items.map((s: { id: string }) => s.id)).not.toContain(old.id);
    expect((await call('GET', `/v1/spaces/${old.id}`)).json.deletedAt).toEqual(expect.any(String));
    await projected(p, old.id).deletedAt().toBeInstanceOf(Date);

    // The purge job (every 300 ms here) takes a space as soon as it is past the window, maybe before the restore
    // below is answered: a transaction of the test holds the old space's row (key share: the purge, `for update skip
    // locked`, passes it over; the update of deleted_at and the restore's read are not held up) until then.
    const hold = new pg.Client({ connectionString: p.env.DATABASE_URL });
    await hold.connect();
    await hold.query('begin');
    await hold.query('select 1 from content.space where id = $1 for key share', [old.id]);
    await p.sql(`update content.space set deleted_at = now() - interval '6 days' where id = $1`, [recent.id]);
    await p.sql(`update content.space set deleted_at = now() - interval '8 days' where id = $1`, [old.id]);
    const ok = await call('POST', `/v1/spaces/${recent.id}/restore`);
    expect(ok.status).toBe(200);
    expect(ok.json.deletedAt).toBeUndefined();
    const late = await call('POST', `/v1/spaces/${old.id}/restore`);
    await hold.query('rollback');
    await hold.end();
    expect(late.status).toBe(412);
    expect(late.json).toEqual({
      error: { code: 412, message: 'The space was deleted more than 7 days ago and can no longer be restored' },
    });

    // The purge job (every 300 ms here) removes it; space.purged makes sites drop its row.
    await expect.poll(async () => (await call('GET', `/v1/spaces/${old.id}`)).status, { timeout: 10_000 }).toBe(404);
    await projected(p, old.id).rows().toBe(0);
    expect(await p.sql('select id from content.revision where space_id = $1', [old.id])).toEqual([]);
    expect((await call('GET', `/v1/spaces/${recent.id}`)).status).toBe(200);
    expect((await projection(p, recent.id))[0]?.deleted_at).toBeNull();
  });

  it('lists siblings in the order moves give them, across pages', async () => {
    const call = http(p, acme.token);
    const org = (await call('POST', '/v1/orgs', { title: 'Order Co' })).json.id as string;
    const ids: Record<string, string> = {};
    for (const title of ['A', 'B', 'C', 'D'])
      ids[title] = (await call('POST', `/v1/orgs/${org}/spaces`, { title })).json.id;
    const order = async () => {
      const titles: string[] = [];
      let page: string | undefined;
      do {
        const res = await call('GET', `/v1/orgs/${org}/spaces?limit=3${page ? `&page=${page}` : ''}`);
        titles.push(...res.json.items.map((s: { title: string }) => s.title));
        page = res.json.next?.page;
      } while (page);
      return titles;
    };
    expect(await order()).toEqual(['A', 'B', 'C', 'D']);
    await p.client(acme.token).spaces.moveSpace(ids.D!, { position: { before: { type: 'space', space: ids.A! } } });
    expect(await order()).toEqual(['D', 'A', 'B', 'C']);
    await p.client(acme.token).spaces.moveSpace(ids.A!, { position: { after: { type: 'space', space: ids.C! } } });
    expect(await order()).toEqual(['D', 'B', 'C', 'A']);
    // Collections sit among spaces in the same order.
    const col = (await call('POST', `/v1/orgs/${org}/collections`, { title: 'Box' })).json;
    await call('POST', `/v1/collections/${col.id}/move`, { position: { after: { type: 'space', space: ids.D } } });
    await call('POST', `/v1/spaces/${ids.B}/move`, { parent: col.id });
    await call('POST', `/v1/spaces/${ids.C}/move`, {
      parent: col.id,
      position: { before: { type: 'space', space: ids.B } },
    });
    expect(
      (await call('GET', `/v1/collections/${col.id}/spaces`)).json.items.map((s: { title: string }) => s.title),
    ).toEqual(['C', 'B']);
    expect((await order()).filter((t) => t === 'D' || t === 'A')).toEqual(['D', 'A']);
  });

  it('transfers a space between organizations (admin in both); sites follows space.transferred', async () => {
    const call = http(p, acme.token);
    const space = (await call('POST', `/v1/orgs/${acme.organization.id}/spaces`, { title: 'Traveller' })).json;
    await projected(p, space.id).organization().toBe(acme.organization.id);
    const moved = await call('POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.organization.id });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ id: space.id, organization: beta.organization.id, revision: space.revision });
    await projected(p, space.id).organization().toBe(beta.organization.id);
    // Bob, admin of Beta, now sees it; Rita (Acme only) no longer does.
    expect((await p.client(beta.token).spaces.getSpaceById(space.id)).data.permissions.admin).toBe(true);
    expect(await apiError(p.client(rita.token).spaces.getSpaceById(space.id))).toMatchObject({ code: 404 });
    // Bob is not admin in Acme: he cannot send it back.
    expect(
      (await http(p, beta.token)('POST', `/v1/spaces/${space.id}/transfer`, { organization: acme.organization.id }))
        .status,
    ).toBe(403);
    // A collection travels with its spaces.
    const col = (await call('POST', `/v1/orgs/${beta.organization.id}/collections`, { title: 'Crate' })).json;
    expect((await call('POST', `/v1/spaces/${space.id}/move`, { parent: col.id })).status).toBe(200);
    const back = await p
      .client(acme.token)
      .collections.transferCollection(col.id, { organization: acme.organization.id });
    expect(back.data.organization).toBe(acme.organization.id);
    await projected(p, space.id).organization().toBe(acme.organization.id);
    expect((await call('GET', `/v1/spaces/${space.id}`)).json).toMatchObject({
      organization: acme.organization.id,
      parent: col.id,
    });
  });

  it('applies the permission table: a `read` member reads, an admin does everything', async () => {
    const admin = http(p, acme.token);
    const reader = http(p, rita.token);
    const org = acme.organization.id;
    const space = (await admin('POST', `/v1/orgs/${org}/spaces`, { title: 'Guarded' })).json;
    const col = (await admin('POST', `/v1/orgs/${org}/collections`, { title: 'Guarded box' })).json;
    const trashed = (await admin('POST', `/v1/orgs/${org}/spaces`, { title: 'Trashed' })).json;
    await admin('DELETE', `/v1/spaces/${trashed.id}`);
    const leaving = (await admin('POST', `/v1/orgs/${org}/spaces`, { title: 'Leaving' })).json;
    const leavingCol = (await admin('POST', `/v1/orgs/${org}/collections`, { title: 'Leaving box' })).json;

    const got = await reader('GET', `/v1/spaces/${space.id}`);
    expect(got.status).toBe(200);
    expect(got.json.permissions).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
    });
    expect((await reader('GET', `/v1/collections/${col.id}`)).json.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false,
    });
    expect((await admin('GET', `/v1/spaces/${space.id}`)).json.permissions).toEqual({
      view: true,
      access: true,
      admin: true,
      viewInviteLinks: true,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
    });

    // operation → [reader status, admin status]
    const table: [string, string, string, unknown, number, number][] = [
      ['list spaces', 'GET', `/v1/orgs/${org}/spaces`, undefined, 200, 200],
      ['list collections', 'GET', `/v1/orgs/${org}/collections`, undefined, 200, 200],
      ['list collection spaces', 'GET', `/v1/collections/${col.id}/spaces`, undefined, 200, 200],
      ['own member spaces', 'GET', `/v1/orgs/${org}/members/${rita.user.id}/spaces`, undefined, 200, 200],
      ["another member's spaces", 'GET', `/v1/orgs/${org}/members/${acme.user.id}/spaces`, undefined, 403, 200],
      ['create space', 'POST', `/v1/orgs/${org}/spaces`, { title: 'New' }, 403, 201],
      ['update space', 'PATCH', `/v1/spaces/${space.id}`, { title: 'Renamed' }, 403, 200],
      ['duplicate space', 'POST', `/v1/spaces/${space.id}/duplicate`, undefined, 403, 201],
      ['move space', 'POST', `/v1/spaces/${space.id}/move`, { parent: col.id }, 403, 200],
      ['restore space', 'POST', `/v1/spaces/${trashed.id}/restore`, undefined, 403, 200],
      ['transfer space', 'POST', `/v1/spaces/${leaving.id}/transfer`, { organization: beta.organization.id }, 403, 200],
      ['create collection', 'POST', `/v1/orgs/${org}/collections`, { title: 'New' }, 403, 201],
      ['update collection', 'PATCH', `/v1/collections/${col.id}`, { title: 'Renamed' }, 403, 200],
      ['move collection', 'POST', `/v1/collections/${col.id}/move`, { parent: null }, 403, 200],
      [
        'transfer collection',
        'POST',
        `/v1/collections/${leavingCol.id}/transfer`,
        { organization: beta.organization.id },
        403,
        200,
      ],
      ['delete space', 'DELETE', `/v1/spaces/${trashed.id}`, undefined, 403, 205],
      ['delete collection', 'DELETE', `/v1/collections/${col.id}`, undefined, 403, 205],
    ];
    for (const [name, method, path, body, readerStatus, adminStatus] of table) {
      const r = await reader(method, path, body);
      expect(r.status, `reader: ${name}`).toBe(readerStatus);
      if (readerStatus === 403) expect(r.json.error.code).toBe(403);
      expect((await admin(method, path, body)).status, `admin: ${name}`).toBe(adminStatus);
    }
    // An admin lists Rita's spaces (her role comes from the member.added event of `users add`).
    await expect
      .poll(async () => (await admin('GET', `/v1/orgs/${org}/members/${rita.user.id}/spaces`)).status, {
        timeout: 5_000,
      })
      .toBe(200);
    const ritas = (await admin('GET', `/v1/orgs/${org}/members/${rita.user.id}/spaces?limit=1000`)).json;
    expect(ritas.items.map((i: { space: { id: string } }) => i.space.id)).toContain(space.id);
    expect(ritas.items.find((i: { space: { id: string } }) => i.space.id === space.id)).toMatchObject({
      permission: 'read',
      space: { permissions: { admin: true } },
    });
    // Rita's own list carries her role on each space.
    const own = await p.client(rita.token).orgs.listSpacesForOrganizationMember(org, rita.user.id);
    expect(own.data.items.length).toBeGreaterThan(0);
    expect(own.data.items.every((i) => i.permission === 'read' && i.space.permissions.admin === false)).toBe(true);
    // A space level raises her: `edit` on one space.
    const raised = (await admin('POST', `/v1/orgs/${org}/spaces`, { title: 'Raised' })).json;
    await admin('PATCH', `/v1/spaces/${raised.id}`, { defaultLevel: 'edit' });
    expect((await reader('GET', `/v1/spaces/${raised.id}`)).json.permissions).toMatchObject({
      edit: true,
      comment: true,
      admin: false,
    });
  });

  it('answers 404 to a token of another organization, on every operation', async () => {
    const admin = http(p, acme.token);
    const outsider = http(p, beta.token);
    const org = acme.organization.id;
    const space = (await admin('POST', `/v1/orgs/${org}/spaces`, { title: 'Private to Acme' })).json;
    const col = (await admin('POST', `/v1/orgs/${org}/collections`, { title: 'Acme box' })).json;
    const cases: [string, string, unknown?][] = [
      ['GET', `/v1/spaces/${space.id}`],
      ['PATCH', `/v1/spaces/${space.id}`, { title: 'x' }],
      ['DELETE', `/v1/spaces/${space.id}`],
      ['POST', `/v1/spaces/${space.id}/restore`],
      ['POST', `/v1/spaces/${space.id}/duplicate`],
      ['POST', `/v1/spaces/${space.id}/move`, { parent: null }],
      ['POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.organization.id }],
      ['GET', `/v1/orgs/${org}/spaces`],
      ['POST', `/v1/orgs/${org}/spaces`, { title: 'x' }],
      ['GET', `/v1/orgs/${org}/members/${acme.user.id}/spaces`],
      ['GET', `/v1/orgs/${org}/collections`],
      ['POST', `/v1/orgs/${org}/collections`, { title: 'x' }],
      ['GET', `/v1/collections/${col.id}`],
      ['PATCH', `/v1/collections/${col.id}`, { title: 'x' }],
      ['DELETE', `/v1/collections/${col.id}`],
      ['GET', `/v1/collections/${col.id}/spaces`],
      ['POST', `/v1/collections/${col.id}/move`, { parent: null }],
      ['POST', `/v1/collections/${col.id}/transfer`, { organization: beta.organization.id }],
    ];
    for (const [method, path, body] of cases) {
      const res = await outsider(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error.code).toBe(404);
    }
    expect((await admin('GET', `/v1/spaces/${space.id}`)).json.title).toBe('Private to Acme');
  });

  it('documents the operations with their GitBook operationIds and statuses', async () => {
    const doc = (await (await fetch(`${p.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    };
    const expected: [string, string, string, string][] = [
      ['/v1/spaces/{spaceId}', 'patch', 'updateSpaceById', '200'],
      ['/v1/spaces/{spaceId}', 'delete', 'deleteSpaceById', '205'],
      ['/v1/spaces/{spaceId}/duplicate', 'post', 'duplicateSpace', '201'],
      ['/v1/spaces/{spaceId}/restore', 'post', 'restoreSpace', '200'],
      ['/v1/spaces/{spaceId}/move', 'post', 'moveSpace', '200'],
      ['/v1/spaces/{spaceId}/transfer', 'post', 'transferSpace', '200'],
      ['/v1/orgs/{organizationId}/members/{userId}/spaces', 'get', 'listSpacesForOrganizationMember', '200'],
      ['/v1/orgs/{organizationId}/collections', 'get', 'listCollectionsInOrganizationById', '200'],
      ['/v1/orgs/{organizationId}/collections', 'post', 'createCollection', '201'],
      ['/v1/collections/{collectionId}', 'get', 'getCollectionById', '200'],
      ['/v1/collections/{collectionId}', 'patch', 'updateCollectionById', '200'],
      ['/v1/collections/{collectionId}', 'delete', 'deleteCollectionById', '205'],
      ['/v1/collections/{collectionId}/spaces', 'get', 'listSpacesInCollectionById', '200'],
      ['/v1/collections/{collectionId}/move', 'post', 'moveCollection', '200'],
      ['/v1/collections/{collectionId}/transfer', 'post', 'transferCollection', '200'],
    ];
    for (const [path, method, operationId, status] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op?.operationId, `${method} ${path}`).toBe(operationId);
      expect(Object.keys(op!.responses)).toContain(status);
    }
  });
});

describe.skipIf(!hasNats)(
  'spaces over NATS JetStream: transfer and purge reach sites, the purge runs on the work queue',
  () => {
    // Stopping it deletes its streams, the jobs' work queue among them.
    const p = usePlatform({ nats: true, env: { QUIRE_PURGE_EVERY_MS: '300' } });
    let acme: Boot;
    let beta: Boot;

    beforeAll(async () => {
      ({ acme, beta } = await setUp(p));
    });

    it('moves the projection with the space, then drops it when the purge job removes the space', async () => {
      const call = http(p, acme.token);
      const space = (await call('POST', `/v1/orgs/${acme.organization.id}/spaces`, { title: 'Over NATS' })).json;
      await projected(p, space.id, 10_000).organization().toBe(acme.organization.id);
      expect(
        (await call('POST', `/v1/spaces/${space.id}/transfer`, { organization: beta.organization.id })).status,
      ).toBe(200);
      await projected(p, space.id, 10_000).organization().toBe(beta.organization.id);

      expect((await call('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
      await projected(p, space.id, 10_000).deletedAt().toBeInstanceOf(Date);
      await p.sql(`update content.space set deleted_at = now() - interval '8 days' where id = $1`, [space.id]);
      // Too late to restore: 412, or 404 once the purge job (every 300 ms) got there first (412 alone is tested above).
      expect([412, 404]).toContain((await call('POST', `/v1/spaces/${space.id}/restore`)).status);
      await expect
        .poll(async () => (await call('GET', `/v1/spaces/${space.id}`)).status, { timeout: 10_000 })
        .toBe(404);
      await projected(p, space.id, 10_000).rows().toBe(0);

      const content = p.platform.services.find((s) => s.name === 'content')!;
      expect(content.jobs?.kind).toBe('nats');
      const nc = await connect({ servers: TEST_NATS_URL });
      const info = await (await jetstreamManager(nc)).streams.info(`${p.env.NATS_STREAM}_JOBS`);
      await nc.close();
      expect(info.config.retention).toBe('workqueue');
    });
  },
);
