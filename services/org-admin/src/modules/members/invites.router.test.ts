import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { expectReasons } from '@quire/kit/testing';
import { instanceAdmin, seedOrganization, useOrgAdminAndContent } from '../../test-support.ts';
import { Invite } from '../sign-in/sign-in.entity.ts';

const p = useOrgAdminAndContent('invites');

describe('pending invitations', () => {
  it('are listed for admins, newest first, and a withdrawn one leaves the list and stops working', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { ed: 'edit' });
    // Someone with an account elsewhere joins only by accepting; a new address is a member at once.
    const elsewhere = await seedOrganization(p.orgAdmin, {});
    await p.orgAdmin.call(
      ops.inviteUsersToOrganization,
      { organizationId, emails: [elsewhere.admin.email] },
      admin.actor,
    );
    await p.orgAdmin.call(
      ops.inviteUsersToOrganization,
      { organizationId, emails: [{ email: 'newbie@invites.example', role: 'comment' }] },
      admin.actor,
    );
    const list = await p.orgAdmin.call(ops.listOrganizationInvites, { organizationId }, admin.actor);
    expect(list.count).toBe(2);
    expect(list.items.map((i) => [i.user.email, i.role, i.joins])).toEqual([
      ['newbie@invites.example', 'comment', false],
      [elsewhere.admin.email, 'read', true],
    ]);
    expect(Date.parse(list.items[0]!.expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    // Paged like every list.
    const first = await p.orgAdmin.call(ops.listOrganizationInvites, { organizationId, limit: 1 }, admin.actor);
    const second = await p.orgAdmin.call(
      ops.listOrganizationInvites,
      { organizationId, limit: 1, page: first.next!.page },
      admin.actor,
    );
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual(list.items.map((i) => i.id));

    // Withdrawn: gone from the list, its row revoked; withdrawing it again is a 404.
    const joining = list.items[1]!;
    await p.orgAdmin.call(ops.deleteOrganizationInvite, { organizationId, inviteId: joining.id }, admin.actor);
    const after = await p.orgAdmin.call(ops.listOrganizationInvites, { organizationId }, admin.actor);
    expect(after.items.map((i) => i.id)).toEqual([list.items[0]!.id]);
    const row = await p.orgAdmin.svc.deps.orm.em.fork().findOneOrFail(Invite, { id: joining.id });
    expect(row.revokedAt).not.toBeNull();
    await expectReasons('not_found', [
      () => p.orgAdmin.call(ops.deleteOrganizationInvite, { organizationId, inviteId: joining.id }, admin.actor),
      // another organization's invitation is not found through this one
      () =>
        p.orgAdmin.call(
          ops.deleteOrganizationInvite,
          { organizationId: elsewhere.organizationId, inviteId: list.items[0]!.id },
          elsewhere.admin.actor,
        ),
    ]);
    // Not for members who are not admins, nor for another organization's admin.
    await expectReasons('forbidden', [
      () => p.orgAdmin.call(ops.listOrganizationInvites, { organizationId }, users.ed.actor),
      () =>
        p.orgAdmin.call(ops.deleteOrganizationInvite, { organizationId, inviteId: list.items[0]!.id }, users.ed.actor),
    ]);
    await expectReasons('not_found', [
      () => p.orgAdmin.call(ops.listOrganizationInvites, { organizationId }, elsewhere.admin.actor),
    ]);
    expect(instanceAdmin.kind).toBe('instance-admin');
  });
});
