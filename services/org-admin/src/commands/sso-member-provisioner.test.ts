import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { OrganizationDomain } from '../modules/domains/domain.entity.ts';
import { SsoIdentity } from '../modules/oidc/oidc-provider.entity.ts';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { TeamMember } from '../modules/teams/team.entity.ts';
import { User } from '../modules/users/user.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import { userEnsurer } from './member-adder.ts';
import { teamCreator } from './team-member-updater.ts';
import { ssoDefaultsSetter, ssoIdentityLinker, ssoMemberProvisioner } from './sso-member-provisioner.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'sso-member-provisioner' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);

/** An organization whose provider gives new members the `edit` role and a team. */
async function setup(opts: { domain?: string; verified?: boolean } = {}) {
  const org = await seedOrganization(t, { bob: 'read' }, opts.domain ? { domain: opts.domain } : {});
  const team = await inTx((tx) => teamCreator(tx, { organizationId: org.organizationId, title: 'Writers' }));
  if (opts.domain)
    await inTx(async (tx) => {
      tx.create(OrganizationDomain, {
        organizationId: org.organizationId,
        domain: opts.domain!,
        token: 'txt',
        createdAt: new Date(),
        checkedAt: new Date(),
        verifiedAt: opts.verified ? new Date() : null,
      });
    });
  const provision = (subject: string, email: string, name: string | null = null) =>
    inTx((tx) =>
      ssoMemberProvisioner(tx, {
        organizationId: org.organizationId,
        providerId: `oidc-${org.organizationId}`,
        subject,
        email,
        name,
        defaultRole: 'edit',
        defaultTeamId: team.id,
      }),
    );
  return { ...org, team, provision };
}

const teamAdded = async (teamId: string) =>
  (await t.outboxEvents('team.member-added')).filter((e) => (e.data as { team: string }).team === teamId);

describe('ssoMemberProvisioner', () => {
  it('makes a new user for an e-mail nobody has, links the identity and makes them an SSO member with the defaults', async () => {
    const { organizationId, team, provision } = await setup();
    const r = await provision('sub-new', '  New.Person@Elsewhere.test ', 'New Person');
    expect(r).toEqual({ ok: true, userId: expect.any(String) });
    const userId = (r as { userId: string }).userId;
    expect(await t.em().findOneOrFail(User, { id: userId })).toMatchObject({
      email: 'new.person@elsewhere.test',
      displayName: 'New Person',
    });
    expect(
      await t.em().findOne(SsoIdentity, { providerId: `oidc-${organizationId}`, subject: 'sub-new' }),
    ).toMatchObject({ userId });
    expect(await t.em().findOneOrFail(Membership, { organizationId, userId })).toMatchObject({
      role: 'edit',
      sso: true,
    });
    expect(await t.em().findOneOrFail(TeamMember, { team: team.id, userId })).toMatchObject({ role: 'member' });
    expect((await teamAdded(team.id)).map((e) => (e.data as { user: string }).user)).toEqual([userId]);
    const added = await t.outboxEvents('member.added');
    expect(added.filter((e) => (e.data as { user: string }).user === userId)).toHaveLength(1);
  });

  it('signs a linked identity in as its user, and never adds a membership twice', async () => {
    const { organizationId, provision } = await setup();
    const first = (await provision('sub-twice', 'twice@elsewhere.test')) as { userId: string };
    // The provider now asserts another e-mail for the same subject: the link decides, not the e-mail.
    expect(await provision('sub-twice', 'renamed@elsewhere.test')).toEqual({ ok: true, userId: first.userId });
    expect(await t.em().count(User, { email: 'renamed@elsewhere.test' })).toBe(0);
    expect(await t.em().count(Membership, { organizationId, userId: first.userId })).toBe(1);
    expect(await t.em().count(SsoIdentity, { subject: 'sub-twice' })).toBe(1);
  });

  it('asks the owner of an existing account to confirm the link, writing nothing, when the domain is not proven', async () => {
    const { users, organizationId, provision } = await setup({ domain: 'unproven-sso.test', verified: false });
    const outbox = (await t.outboxEvents()).length;
    expect(await provision('sub-bob', users.bob.email.toUpperCase())).toEqual({
      ok: false,
      reason: 'confirm',
      userId: users.bob.id,
    });
    expect(await t.em().count(SsoIdentity, { subject: 'sub-bob', providerId: `oidc-${organizationId}` })).toBe(0);
    expect(await t.em().findOneOrFail(Membership, { organizationId, userId: users.bob.id })).toMatchObject({
      role: 'read',
      sso: false,
    });
    expect((await t.outboxEvents()).length).toBe(outbox);
  });

  it('links an existing account by itself when the organization has proven the domain, keeping its membership', async () => {
    const { users, organizationId, team, provision } = await setup({ domain: 'proven-sso.test', verified: true });
    expect(await provision('sub-bob', users.bob.email)).toEqual({ ok: true, userId: users.bob.id });
    expect(
      await t.em().findOne(SsoIdentity, { providerId: `oidc-${organizationId}`, subject: 'sub-bob' }),
    ).toMatchObject({
      userId: users.bob.id,
    });
    // A member already: neither the role nor the teams change.
    expect(await t.em().findOneOrFail(Membership, { organizationId, userId: users.bob.id })).toMatchObject({
      role: 'read',
      sso: false,
    });
    expect(await t.em().count(TeamMember, { team: team.id, userId: users.bob.id })).toBe(0);
  });
});

describe('ssoIdentityLinker', () => {
  it("links a confirmed account and makes it a member with the provider's role, no team when the team is gone", async () => {
    const { organizationId } = await seedOrganization(t, {});
    const user = await inTx((tx) => userEnsurer(tx, { email: 'confirmed@elsewhere.test' }));
    await inTx((tx) =>
      ssoIdentityLinker(tx, {
        organizationId,
        providerId: 'saml-x',
        subject: 'name-id',
        userId: user.id,
        defaultRole: null,
        defaultTeamId: 'gone',
      }),
    );
    expect(await t.em().findOneOrFail(Membership, { organizationId, userId: user.id })).toMatchObject({
      role: null,
      sso: true,
    });
    expect(await t.em().count(TeamMember, { userId: user.id })).toBe(0);
    expect(await t.em().count(SsoIdentity, { providerId: 'saml-x', subject: 'name-id', userId: user.id })).toBe(1);
  });
});

describe('ssoDefaultsSetter', () => {
  it("sets the default team and role, clears them with null, and refuses another organization's team", async () => {
    const a = await seedOrganization(t, {});
    const b = await seedOrganization(t, {});
    const mine = await inTx((tx) => teamCreator(tx, { organizationId: a.organizationId, title: 'Mine' }));
    const theirs = await inTx((tx) => teamCreator(tx, { organizationId: b.organizationId, title: 'Theirs' }));
    const provider = { organizationId: a.organizationId, defaultTeamId: null as string | null, defaultRole: null };
    await inTx((tx) => ssoDefaultsSetter(tx, provider, { defaultTeam: mine.id, defaultRole: 'comment' }));
    expect(provider).toMatchObject({ defaultTeamId: mine.id, defaultRole: 'comment' });
    await inTx((tx) => ssoDefaultsSetter(tx, provider, {}));
    expect(provider).toMatchObject({ defaultTeamId: mine.id, defaultRole: 'comment' });
    expect(await failureOf(inTx((tx) => ssoDefaultsSetter(tx, provider, { defaultTeam: theirs.id })))).toMatchObject({
      reason: 'invalid_input',
      message: 'Invalid request: defaultTeam: no such team in the organization',
    });
    expect(provider.defaultTeamId).toBe(mine.id);
    await inTx((tx) => ssoDefaultsSetter(tx, provider, { defaultTeam: null, defaultRole: null }));
    expect(provider).toMatchObject({ defaultTeamId: null, defaultRole: null });
  });
});
