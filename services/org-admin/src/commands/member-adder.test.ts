import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { User } from '../modules/users/user.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import { membershipSetter, nameFromEmail, userEnsurer } from './member-adder.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'member-adder' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const memberEvents = async (organizationId: string) =>
  (await t.outboxEvents())
    .filter(
      (e) => e.type.startsWith('member.') && (e.data as { organization?: string }).organization === organizationId,
    )
    .map((e) => ({ type: e.type, ...(e.data as Record<string, unknown>) }));

describe('userEnsurer', () => {
  it('finds a user by e-mail whatever its case, renames it when a name is given, creates one otherwise', async () => {
    expect(nameFromEmail('jane.doe@x.io')).toBe('jane.doe');
    const created = await inTx((tx) => userEnsurer(tx, { email: '  Jane.Doe@Example.TEST ' }));
    expect(await t.em().findOneOrFail(User, { id: created.id })).toMatchObject({
      email: 'jane.doe@example.test',
      displayName: 'jane.doe',
      photoURL: null,
    });
    const again = await inTx((tx) => userEnsurer(tx, { email: 'JANE.DOE@example.test' }));
    expect(again.id).toBe(created.id);
    await inTx((tx) => userEnsurer(tx, { email: 'jane.doe@example.test', name: 'Jane Doe' }));
    expect((await t.em().findOneOrFail(User, { id: created.id })).displayName).toBe('Jane Doe');
    expect(await t.em().count(User, { email: 'jane.doe@example.test' })).toBe(1);
  });
});

describe('membershipSetter', () => {
  it('adds a member, changes the role once, and does nothing for the same role', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const user = await inTx((tx) => userEnsurer(tx, { email: 'sam@setter.test' }));
    const set = (role: 'read' | 'edit' | null) =>
      inTx((tx) => membershipSetter(tx, { organizationId, userId: user.id, role }));
    const before = (await memberEvents(organizationId)).length;
    await set('read');
    await set('read');
    await set('edit');
    await set(null);
    expect(await t.em().findOneOrFail(Membership, { organizationId, userId: user.id })).toMatchObject({
      role: null,
      sso: false,
      lastSeenAt: null,
    });
    expect((await memberEvents(organizationId)).slice(before)).toEqual([
      { type: 'member.added', organization: organizationId, user: user.id, role: 'read' },
      { type: 'member.role-changed', organization: organizationId, user: user.id, role: 'edit', previousRole: 'read' },
      { type: 'member.role-changed', organization: organizationId, user: user.id, role: null, previousRole: 'edit' },
    ]);
  });
});
