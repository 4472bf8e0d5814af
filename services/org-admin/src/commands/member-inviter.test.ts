import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { User } from '../modules/users/user.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import { memberInviter, type MemberInviterProps } from './member-inviter.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'member-inviter' });
const invite = (props: MemberInviterProps) => t.em().transactional((tx: EntityManager) => memberInviter(tx, props));
const userId = async (email: string) => (await t.em().findOneOrFail(User, { email })).id;

describe('memberInviter', () => {
  it('adds new accounts at once, only invites existing accounts, leaves members alone; first occurrence wins', async () => {
    const { organizationId, users } = await seedOrganization(t, { member: 'edit' });
    const other = await seedOrganization(t, { outsider: 'read' });
    const result = await invite({
      organizationId,
      sso: false,
      invites: [
        { email: ' New.Person@Invite.test ', role: 'read' },
        { email: 'new.person@invite.test', role: 'admin' },
        { email: other.users.outsider.email.toUpperCase(), role: 'comment' },
        { email: users.member.email, role: 'read' },
      ],
    });
    const created = await userId('new.person@invite.test');
    expect(result).toEqual({
      users: [created, other.users.outsider.id],
      failedSSOEmails: [],
      invited: [
        { userId: created, email: 'new.person@invite.test', role: 'read', joins: false },
        { userId: other.users.outsider.id, email: other.users.outsider.email, role: 'comment', joins: true },
      ],
    });
    expect(await t.em().findOneOrFail(Membership, { organizationId, userId: created })).toMatchObject({
      role: 'read',
      sso: false,
    });
    // The existing account is not a member until it accepts.
    expect(await t.em().count(Membership, { organizationId, userId: other.users.outsider.id })).toBe(0);
    expect((await t.em().findOneOrFail(Membership, { organizationId, userId: users.member.id })).role).toBe('edit');
    const added = (await t.outboxEvents('member.added'))
      .map((e) => e.data as { organization: string; user: string; role: string })
      .filter((d) => d.organization === organizationId && d.user === created);
    expect(added).toEqual([{ organization: organizationId, user: created, role: 'read' }]);
  });

  it('as SSO members: new accounts are SSO members; an account of another organization is reported', async () => {
    const { organizationId } = await seedOrganization(t, {});
    const other = await seedOrganization(t, { elsewhere: 'read' });
    const result = await invite({
      organizationId,
      sso: true,
      invites: [
        { email: 'sso.new@invite.test', role: 'edit' },
        { email: other.users.elsewhere.email, role: 'edit' },
      ],
    });
    expect(result.failedSSOEmails).toEqual([other.users.elsewhere.email]);
    const created = await userId('sso.new@invite.test');
    expect(await t.em().findOneOrFail(Membership, { organizationId, userId: created })).toMatchObject({
      role: 'edit',
      sso: true,
    });
  });
});
