import { describe, expect, it } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { OutboxEvent, sha256Hex } from '@quire/kit';
import { failureOf, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';

const ADMIN_TOKEN = 'quire_admin_'.padEnd(48, 'x');
const admin: Actor = { kind: 'instance-admin' };
const t = useTestService(orgAdminService, loadOrgAdminConfig, {
  label: 'orgadmin',
  env: { QUIRE_ADMIN_TOKEN: ADMIN_TOKEN },
});

async function bootstrap(title = 'Acme', email = `jane-${Math.random().toString(36).slice(2)}@acme.io`) {
  return t.call(ops.bootstrapInstance, { title, email, name: 'Jane' }, admin);
}

describe('identity', () => {
  it('bootstraps an organization whose admin token resolves to the admin membership', async () => {
    const { organization, user, token } = await bootstrap('Acme Docs');
    expect(organization).toMatchObject({
      object: 'organization',
      title: 'Acme Docs',
      permissions: { admin: true, view: true },
    });
    expect(token).toMatch(/^quire_[A-Za-z0-9_-]{43}$/);
    const { actor } = await t.call(
      ops.resolveToken,
      { tokenHash: sha256Hex(token) },
      { kind: 'service', service: 'gateway' },
    );
    // The token's id rides with the actor (the audit log records which token made a change).
    expect(actor).toEqual({
      kind: 'user',
      userId: user.id,
      memberships: [{ organization: organization.id, role: 'admin', teams: [] }],
      tokenId: expect.any(String),
    });
  });

  it('stores tokens hashed, never in clear', async () => {
    const { token } = await bootstrap();
    const rows = await t.svc.deps.orm.em
      .getConnection()
      .execute<{ hash: string }[]>(`select hash from "org_admin"."api_token"`);
    expect(rows.some((r: { hash: string }) => r.hash === sha256Hex(token))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('resolves the instance admin token and nothing for an unknown one', async () => {
    const svcActor: Actor = { kind: 'service', service: 'gateway' };
    expect((await t.call(ops.resolveToken, { tokenHash: sha256Hex(ADMIN_TOKEN) }, svcActor)).actor).toEqual({
      kind: 'instance-admin',
    });
    expect((await t.call(ops.resolveToken, { tokenHash: sha256Hex('nope') }, svcActor)).actor).toBeNull();
  });

  it('keeps internal and admin operations away from users', async () => {
    const { user, organization } = await bootstrap();
    const actor = userActor(user.id, [{ organization: organization.id, role: 'admin' }]);
    expect((await failureOf(t.call(ops.resolveToken, { tokenHash: sha256Hex('x') }, actor))).message).toMatch(
      /internal/,
    );
    expect((await failureOf(t.call(ops.bootstrapInstance, { title: 'Evil', email: 'e@e.io' }, actor))).message).toMatch(
      /instance admin/,
    );
    expect(await reasonOf(t.call(ops.getAuthenticatedUser, {}, { kind: 'anonymous' }))).toBe('unauthenticated');
  });

  it('revokes a token so it no longer resolves, with an event in the outbox', async () => {
    const { user, organization } = await bootstrap();
    const actor = userActor(user.id, [{ organization: organization.id, role: 'admin' }]);
    const created = await t.call(ops.createApiToken, { label: 'ci' }, actor);
    const svcActor: Actor = { kind: 'service', service: 'gateway' };
    expect((await t.call(ops.resolveToken, { tokenHash: sha256Hex(created.token) }, svcActor)).actor).not.toBeNull();
    const listed = await t.call(ops.listApiTokens, {}, actor);
    expect(listed.items.map((i) => i.id)).toContain(created.info.id);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    await t.call(ops.revokeApiToken, { tokenId: created.info.id }, actor);
    expect((await t.call(ops.resolveToken, { tokenHash: sha256Hex(created.token) }, svcActor)).actor).toBeNull();
    expect(await t.svc.deps.orm.em.fork().count(OutboxEvent, { type: 'token.revoked' })).toBeGreaterThan(0);
    expect(await reasonOf(t.call(ops.revokeApiToken, { tokenId: created.info.id }, actor))).toBe('not_found');
  });
});

describe('organizations', () => {
  it('creates an organization with the caller as admin', async () => {
    const { user } = await bootstrap();
    const org = await t.call(ops.createOrganization, { title: 'Second org' }, userActor(user.id));
    expect(org.permissions.admin).toBe(true);
    const { actor } = await t.call(
      ops.resolveToken,
      { tokenHash: sha256Hex((await t.call(ops.createApiToken, { label: 'x' }, userActor(user.id))).token) },
      { kind: 'service', service: 'g' },
    );
    expect(actor && actor.kind === 'user' && actor.memberships.find((m) => m.organization === org.id)?.role).toBe(
      'admin',
    );
  });

  it('lists the caller organizations with keyset pages, `next` absent on the last one', async () => {
    const { user, organization } = await bootstrap();
    const memberships: { organization: string; role: 'admin' }[] = [{ organization: organization.id, role: 'admin' }];
    for (const title of ['B org', 'C org']) {
      const o = await t.call(ops.createOrganization, { title }, userActor(user.id));
      memberships.push({ organization: o.id, role: 'admin' });
    }
    const actor = userActor(user.id, memberships);
    const first = await t.call(ops.listOrganizationsForAuthenticatedUser, { limit: 2 }, actor);
    expect(first.count).toBe(3);
    expect(first.items).toHaveLength(2);
    expect(first.next?.page).toBeTruthy();
    const second = await t.call(ops.listOrganizationsForAuthenticatedUser, { limit: 2, page: first.next!.page }, actor);
    expect(second.items).toHaveLength(1);
    expect(second.next).toBeUndefined();
    expect(new Set([...first.items, ...second.items].map((o) => o.id)).size).toBe(3);
    const none = await t.call(ops.listOrganizationsForAuthenticatedUser, { limit: 0 }, actor);
    expect(none).toEqual({ count: 3, items: [] });
    expect(await reasonOf(t.call(ops.listOrganizationsForAuthenticatedUser, { page: 'bm9wZQ' }, actor))).toBe(
      'invalid_input',
    );
  });

  it('lets admins update, forbids other members, hides it from strangers', async () => {
    const { user, organization } = await bootstrap();
    const adminActor = userActor(user.id, [{ organization: organization.id, role: 'admin' }]);
    const updated = await t.call(
      ops.updateOrganizationById,
      { organizationId: organization.id, title: 'Renamed', emailDomains: ['Acme.io'], defaultRole: 'read' },
      adminActor,
    );
    expect(updated).toMatchObject({ title: 'Renamed', emailDomains: ['acme.io'], defaultRole: 'read' });
    const reader = userActor('someone', [{ organization: organization.id, role: 'read' }]);
    expect(
      (await t.call(ops.getOrganizationById, { organizationId: organization.id }, reader)).permissions,
    ).toMatchObject({ view: true, admin: false, createContent: false });
    expect(
      await reasonOf(t.call(ops.updateOrganizationById, { organizationId: organization.id, title: 'x y' }, reader)),
    ).toBe('forbidden');
    expect(
      await reasonOf(t.call(ops.getOrganizationById, { organizationId: organization.id }, userActor('stranger'))),
    ).toBe('not_found');
  });

  it('adds users through the admin operation and changes their role', async () => {
    const { organization } = await bootstrap();
    const added = await t.call(
      ops.addUserToOrganization,
      { organizationId: organization.id, email: 'Bob@Acme.io', role: 'edit' },
      admin,
    );
    expect(added.user).toMatchObject({ email: 'bob@acme.io', displayName: 'bob' });
    const again = await t.call(
      ops.addUserToOrganization,
      { organizationId: organization.id, email: 'bob@acme.io', role: 'read' },
      admin,
    );
    expect(again.user.id).toBe(added.user.id);
    const { actor } = await t.call(
      ops.resolveToken,
      { tokenHash: sha256Hex(again.token) },
      { kind: 'service', service: 'g' },
    );
    expect(actor && actor.kind === 'user' && actor.memberships).toEqual([
      { organization: organization.id, role: 'read', teams: [] },
    ]);
    const types = (await t.svc.deps.orm.em.fork().find(OutboxEvent, { type: { $like: 'member.%' } })).map(
      (e) => e.type,
    );
    expect(types).toContain('member.role-changed');
    expect(
      await reasonOf(
        t.call(ops.addUserToOrganization, { organizationId: 'missing', email: 'x@y.io', role: 'read' }, admin),
      ),
    ).toBe('not_found');
  });
});
