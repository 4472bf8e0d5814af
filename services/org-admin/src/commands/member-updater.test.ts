import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { Membership, type IMembership } from '../modules/organizations/organization.entity.ts';
import { TeamMember } from '../modules/teams/team.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import { memberRemover, memberRoleUpdater, memberSsoEnabler } from './member-updater.ts';
import { teamCreator } from './team-member-updater.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'member-updater' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const membershipOf = (organizationId: string, userId: string) =>
  t.em().fork().findOne(Membership, { organizationId, userId });
/** Runs a command on the member's membership, loaded in the transaction as the loader does. */
const onMember = <T>(
  organizationId: string,
  userId: string,
  fn: (tx: EntityManager, m: IMembership) => Promise<T> | T,
) => inTx(async (tx) => fn(tx, await tx.findOneOrFail(Membership, { organizationId, userId })));
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};
const eventsFor = async (organizationId: string, userId: string) =>
  (await t.outboxEvents())
    .filter((e) => {
      const d = e.data as { organization?: string; user?: string };
      return d.organization === organizationId && d.user === userId;
    })
    .map((e) => e.type);

describe('memberRoleUpdater', () => {
  it('changes a role with member.role-changed, and nothing for the same role or none given', async () => {
    const { organizationId, users } = await seedOrganization(t, { ann: 'read' });
    const before = (await eventsFor(organizationId, users.ann.id)).length;
    await onMember(organizationId, users.ann.id, (tx, membership) =>
      memberRoleUpdater(tx, { membership, role: 'read' }),
    );
    await onMember(organizationId, users.ann.id, (tx, membership) =>
      memberRoleUpdater(tx, { membership, role: undefined }),
    );
    await onMember(organizationId, users.ann.id, (tx, membership) =>
      memberRoleUpdater(tx, { membership, role: 'edit' }),
    );
    await onMember(organizationId, users.ann.id, (tx, membership) => memberRoleUpdater(tx, { membership, role: null }));
    expect((await membershipOf(organizationId, users.ann.id))?.role).toBeNull();
    expect((await eventsFor(organizationId, users.ann.id)).slice(before)).toEqual([
      'member.role-changed',
      'member.role-changed',
    ]);
  });

  it('refuses to demote the last admin (409), and demotes one of two', async () => {
    const { organizationId, admin, users } = await seedOrganization(t, { bea: 'admin' });
    await onMember(organizationId, users.bea.id, (tx, membership) =>
      memberRoleUpdater(tx, { membership, role: 'edit' }),
    );
    expect(
      await refusal(
        onMember(organizationId, admin.id, (tx, membership) => memberRoleUpdater(tx, { membership, role: 'edit' })),
      ),
    ).toEqual({ reason: 'conflict', message: 'The organization must keep at least one admin' });
    expect((await membershipOf(organizationId, admin.id))?.role).toBe('admin');
  });
});

describe('memberRemover', () => {
  it('takes the member out of the organization and of its teams, each with its event', async () => {
    const { organizationId, users } = await seedOrganization(t, { cid: 'edit' });
    const team = await inTx((tx) => teamCreator(tx, { organizationId, title: 'Writers', members: [users.cid.id] }));
    const before = (await eventsFor(organizationId, users.cid.id)).length;
    await onMember(organizationId, users.cid.id, (tx, membership) => memberRemover(tx, { membership }));
    expect(await membershipOf(organizationId, users.cid.id)).toBeNull();
    expect(await t.em().count(TeamMember, { team: team.id })).toBe(0);
    expect((await eventsFor(organizationId, users.cid.id)).slice(before)).toEqual([
      'team.member-removed',
      'member.removed',
    ]);
  });

  it('refuses to remove the last admin (409), leaving everything as it was', async () => {
    const { organizationId, admin } = await seedOrganization(t, {});
    expect(
      await refusal(onMember(organizationId, admin.id, (tx, membership) => memberRemover(tx, { membership }))),
    ).toEqual({ reason: 'conflict', message: 'The organization must keep at least one admin' });
    expect((await membershipOf(organizationId, admin.id))?.role).toBe('admin');
  });
});

describe('memberSsoEnabler', () => {
  it('marks a member as an SSO member', async () => {
    const { organizationId, users } = await seedOrganization(t, { dan: 'read' });
    await onMember(organizationId, users.dan.id, (tx, membership) => memberSsoEnabler(tx, { membership }));
    await onMember(organizationId, users.dan.id, (tx, membership) => memberSsoEnabler(tx, { membership }));
    expect((await membershipOf(organizationId, users.dan.id))?.sso).toBe(true);
  });
});
