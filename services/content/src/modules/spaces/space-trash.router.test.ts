import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type Role } from '@quire/contracts';
import { buildSpace, failureOf, orgAdmin, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { stubOrganizationMembers } from '../members/member.testing.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'content-trash' });

const ORG = 'org-bin';
const admin = orgAdmin(ORG);
const editor = userActor('editor', [{ organization: ORG, role: 'edit' }]);
const reader = userActor('reader', [{ organization: ORG, role: 'read' }]);
const stranger = orgAdmin('org-elsewhere');
const DAY = 24 * 3600 * 1_000;

const members = new Map<string, Role | null>([
  ['admin-of-org-bin', 'admin'],
  ['editor', 'edit'],
  ['reader', 'read'],
]);
beforeAll(() => stubOrganizationMembers(t, ORG, members));

const sql = (text: string, params: unknown[]) => t.svc.deps.orm.em.getConnection().execute(text, params);
const trash = (actor = admin, page: { limit?: number; page?: string } = {}) =>
  t.call(ops.listDeletedSpaces, { organizationId: ORG, ...page }, actor);

describe('GET /orgs/{organizationId}/trash/spaces (Quire-only)', () => {
  it('lists what each caller may restore, the latest deleted first, with who deleted it and when it goes', async () => {
    const mine = await buildSpace(t, { org: ORG, title: 'Admin only' });
    const theirs = await buildSpace(t, { org: ORG, title: 'Editor is admin' });
    const old = await buildSpace(t, { org: ORG, title: 'Six days' });
    const gone = await buildSpace(t, { org: ORG, title: 'Eight days' });
    const live = await buildSpace(t, { org: ORG, title: 'Live' });
    await t.call(ops.inviteToSpace, { spaceId: theirs.id, users: ['editor'], role: 'admin' }, admin);
    expect(await trash()).toEqual({ count: 0, items: [] });

    await t.call(ops.deleteSpaceById, { spaceId: mine.id }, admin);
    await t.call(ops.deleteSpaceById, { spaceId: theirs.id }, editor);
    await sql(`update content.space set deleted_at = ? where id = ?`, [new Date(Date.now() - 6 * DAY), old.id]);
    await sql(`update content.space set deleted_at = ? where id = ?`, [new Date(Date.now() - 8 * DAY), gone.id]);

    const all = await trash();
    expect(all.count).toBe(3);
    expect(all.items.map((s) => s.title)).toEqual(['Editor is admin', 'Admin only', 'Six days']);
    const [byEditor, byAdmin, unknown] = all.items;
    expect(byEditor!.deletedBy?.displayName).toBe('editor');
    expect(byAdmin!.deletedBy?.displayName).toBe('admin-of-org-bin');
    expect(unknown!.deletedBy).toBeUndefined();
    for (const s of all.items) expect(Date.parse(s.purgeAt) - Date.parse(s.deletedAt)).toBe(7 * DAY);
    expect(Date.parse(byAdmin!.deletedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(byAdmin!.permissions.admin).toBe(true);
    expect(all.items.map((s) => s.id)).not.toContain(live.id);

    // A member sees only the spaces it is an admin of; a reader none; another organization's admin: 404.
    expect((await trash(editor)).items.map((s) => s.title)).toEqual(['Editor is admin']);
    expect(await trash(reader)).toEqual({ count: 0, items: [] });
    expect(await reasonOf(trash(stranger))).toBe('not_found');

    // Pages of one; a cursor the list did not issue is a 400.
    const first = await trash(admin, { limit: 1 });
    expect(first.items.map((s) => s.title)).toEqual(['Editor is admin']);
    const second = await trash(admin, { limit: 2, page: first.next!.page });
    expect(second.items.map((s) => s.title)).toEqual(['Admin only', 'Six days']);
    expect(second.next).toBeUndefined();
    expect((await failureOf(trash(admin, { page: 'nope' }))).message).toMatch(/page/);

    // Restored: out of the trash, and who deleted it is forgotten.
    await t.call(ops.restoreSpace, { spaceId: theirs.id }, editor);
    expect((await trash()).items.map((s) => s.title)).toEqual(['Admin only', 'Six days']);
    expect(await trash(editor)).toEqual({ count: 0, items: [] });
    const [row] = await sql(`select deleted_by from content.space where id = ?`, [theirs.id]);
    expect(row).toEqual({ deleted_by: null });
  });
});
