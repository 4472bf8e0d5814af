import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { OutboxEvent } from '@quire/kit';
import { createTestDatabase, failureOf, startTestService, userActor, type TestDatabase, type TestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';

let db: TestDatabase;
let t: TestService;
const admin = userActor('admin-user', [{ organization: 'org1', role: 'admin' }]);
const creator = userActor('creator', [{ organization: 'org1', role: 'create' }]);
const reader = userActor('reader', [{ organization: 'org1', role: 'read' }]);
const guest = userActor('guest', [{ organization: 'org1', role: null }]);
const stranger = userActor('stranger', [{ organization: 'org2', role: 'admin' }]);

beforeAll(async () => {
  db = await createTestDatabase('content');
  t = await startTestService(contentService, loadContentConfig, db);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('spaces', () => {
  it('creates a space with its first revision and a space.created event', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Handbook', emoji: '📘' }, creator);
    expect(space).toMatchObject({ object: 'space', title: 'Handbook', emoji: '📘', organization: 'org1', visibility: 'private', defaultLevel: 'inherit', comments: 0, changeRequests: 0 });
    expect(space.urls.location).toBe(`http://quire.test/v1/spaces/${space.id}`);
    expect(space.permissions).toMatchObject({ view: true, edit: true, admin: false });
    const rev = await t.svc.deps.orm.em.getConnection().execute<{ id: string }[]>(`select id from content.revision where space_id = ?`, [space.id]);
    expect(rev.map((r: { id: string }) => r.id)).toEqual([space.revision]);
    const events = await t.svc.deps.orm.em.fork().find(OutboxEvent, { type: 'space.created' });
    expect(events.map((e) => (e.payload as { data: { space: string } }).data.space)).toContain(space.id);
  });

  it('computes permissions per caller and hides spaces from outsiders', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Policies' }, admin);
    expect((await t.call(ops.getSpaceById, { spaceId: space.id }, admin)).permissions.admin).toBe(true);
    expect((await t.call(ops.getSpaceById, { spaceId: space.id }, reader)).permissions).toMatchObject({ view: true, edit: false, comment: false });
    expect((await failureOf(t.call(ops.getSpaceById, { spaceId: space.id }, stranger))).reason).toBe('not_found');
    expect((await failureOf(t.call(ops.getSpaceById, { spaceId: space.id }, guest))).reason).toBe('not_found');
    expect((await failureOf(t.call(ops.getSpaceById, { spaceId: 'nope' }, admin))).reason).toBe('not_found');
  });

  it('lets only create+ members create spaces', async () => {
    expect((await failureOf(t.call(ops.createSpace, { organizationId: 'org1', title: 'x' }, reader))).reason).toBe('forbidden');
    expect((await failureOf(t.call(ops.createSpace, { organizationId: 'org1', title: 'x' }, stranger))).reason).toBe('not_found');
    expect((await failureOf(t.call(ops.createSpace, { organizationId: 'org1', title: 'x'.repeat(51) }, admin))).message).toMatch(/title/);
    expect((await failureOf(t.call(ops.createSpace, { organizationId: 'org1', parent: 'col' }, admin))).message).toBe('Collection not found');
  });

  it('lists the organization spaces a caller can see, paged', async () => {
    const org = 'org-list';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    for (let i = 0; i < 5; i++) await t.call(ops.createSpace, { organizationId: org, title: `S${i}` }, a);
    const page1 = await t.call(ops.listSpaces, { organizationId: org, limit: 3 }, a);
    expect(page1.count).toBe(5);
    expect(page1.items.map((s) => s.title)).toEqual(['S0', 'S1', 'S2']);
    const page2 = await t.call(ops.listSpaces, { organizationId: org, limit: 3, page: page1.next!.page }, a);
    expect(page2.items.map((s) => s.title)).toEqual(['S3', 'S4']);
    expect(page2.next).toBeUndefined();
    expect(await t.call(ops.listSpaces, { organizationId: org }, userActor('g', [{ organization: org, role: null }]))).toEqual({ count: 0, items: [] });
    expect((await failureOf(t.call(ops.listSpaces, { organizationId: org }, stranger))).reason).toBe('not_found');
  });

  it('rejects calls without a valid signed actor', async () => {
    const res = await fetch(`${t.url}/trpc/spaces.get`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"spaceId":"x"}' });
    expect(res.status).toBe(401);
    const forged = await fetch(`${t.url}/trpc/spaces.get`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-quire-actor': 'e30.AAAA' }, body: '{"spaceId":"x"}' });
    expect(forged.status).toBe(401);
  });
});

describe('spaces.countForMembers (internal)', () => {
  it('counts the spaces each member can access, for services only', async () => {
    const org = 'org-count';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    await t.call(ops.createSpace, { organizationId: org, title: 'One' }, a);
    await t.call(ops.createSpace, { organizationId: org, title: 'Two' }, a);
    const res = await t.call(
      ops.countMemberSpaces,
      { organizationId: org, members: [{ userId: 'a', role: 'admin' }, { userId: 'r', role: 'read' }, { userId: 'g', role: null }] },
      { kind: 'service', service: 'org-admin' },
    );
    expect(res.counts).toEqual({ a: 2, r: 2, g: 0 });
    expect((await failureOf(t.call(ops.countMemberSpaces, { organizationId: org, members: [] }, a))).reason).toBe('forbidden');
  });
});
