import { describe, expect, it, vi } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { OutboxEvent, sha256Hex } from '@quire/kit';
import { expectReasons, failureOf, reasonOf, TEST_SECRET, userActor } from '@quire/kit/testing';
import { instanceAdmin, seedOrganization, seedTeam, type Platform, useOrgAdminAndContent } from '../../test-support.ts';
import { verifyVisitorClaims } from './visitor-claims.ts';
import { CookieJar, signInRequest } from '../oidc/oidc-provider.testing.ts';
import { sessionStarter } from '../../commands/session-starter.ts';

const p = useOrgAdminAndContent('members');
const gateway: Actor = { kind: 'service', service: 'gateway' };

const call: Platform['orgAdmin']['call'] = (op, input, actor) => p.orgAdmin.call(op, input, actor);
const eventTypes = async () =>
  (await p.orgAdmin.svc.deps.orm.em.fork().find(OutboxEvent, {}, { orderBy: { seq: 'asc' } })).map((e) => ({
    type: e.type,
    data: (e.payload as { data: Record<string, unknown> }).data,
  }));

describe('members: list, get, counts', () => {
  it('lists members with their user, role and real team and space counts', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, {
      alice: 'edit',
      bob: 'read',
      gary: null,
    });
    for (const title of ['Handbook', 'Runbooks'])
      await p.content.call(ops.createSpace, { organizationId, title }, admin.actor);
    await p.sites.call(ops.createSite, { organizationId, title: 'Docs' }, admin.actor);
    await call(
      ops.createOrganizationTeam,
      { organizationId, title: 'Writers', members: [users.alice.id] },
      admin.actor,
    );

    const list = await call(ops.listMembersInOrganizationById, { organizationId, order: 'asc' }, users.bob.actor);
    expect(list.count).toBe(4);
    expect(list.items.map((m) => m.user.displayName)).toEqual(['Ada Admin', 'Alice', 'Bob', 'Gary']);
    const alice = list.items.find((m) => m.id === users.alice.id)!;
    expect(alice).toMatchObject({
      object: 'member',
      role: 'edit',
      disabled: false,
      sso: false,
      teams: 1,
      spaces: 2,
      sites: 1,
      user: { object: 'user', id: users.alice.id, email: users.alice.email },
    });
    expect(alice.lastSeenAt).toBeUndefined();
    expect(list.items.find((m) => m.id === users.gary.id)).toMatchObject({ role: null, spaces: 0, teams: 0, sites: 0 });
    expect(list.items.find((m) => m.id === admin.id)).toMatchObject({ role: 'admin', spaces: 2, teams: 0 });

    const one = await call(
      ops.getMemberInOrganizationById,
      { organizationId, userId: users.alice.id },
      users.bob.actor,
    );
    expect(one).toEqual(alice);
  });

  it('pages with keyset cursors under every sort, `next` absent on the last page', async () => {
    const { organizationId, users } = await seedOrganization(p.orgAdmin, {
      zed: 'read',
      yann: 'read',
      xena: 'read',
      walt: 'read',
    });
    for (const sort of ['joinedAt', 'name', 'lastSeenAt'] as const) {
      if (sort === 'lastSeenAt')
        for (const u of [users.zed, users.xena, users.walt])
          await call(ops.updateOrganizationMemberLastSeenAt, { organizationId }, u.actor);
      for (const order of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        let page: string | undefined;
        let pages = 0;
        do {
          const res = await call(
            ops.listMembersInOrganizationById,
            { organizationId, sort, order, limit: 2, ...(page ? { page } : {}) },
            users.zed.actor,
          );
          expect(res.count).toBe(sort === 'lastSeenAt' ? 3 : 5);
          seen.push(...res.items.map((m) => m.user.displayName));
          page = res.next?.page;
          pages++;
        } while (page);
        expect(pages).toBe(sort === 'lastSeenAt' ? 2 : 3);
        expect(new Set(seen).size).toBe(seen.length);
        if (sort === 'name')
          expect(seen).toEqual(
            order === 'asc'
              ? ['Ada Admin', 'Walt', 'Xena', 'Yann', 'Zed']
              : ['Zed', 'Yann', 'Xena', 'Walt', 'Ada Admin'],
          );
        if (sort === 'lastSeenAt')
          expect(seen).toEqual(order === 'asc' ? ['Zed', 'Xena', 'Walt'] : ['Walt', 'Xena', 'Zed']);
        if (sort === 'joinedAt')
          expect(seen).toEqual(
            order === 'asc'
              ? ['Ada Admin', 'Zed', 'Yann', 'Xena', 'Walt']
              : ['Walt', 'Xena', 'Yann', 'Zed', 'Ada Admin'],
          );
      }
    }
    // `desc` is the default order, `joinedAt` the default sort.
    expect(
      (await call(ops.listMembersInOrganizationById, { organizationId, limit: 1 }, users.zed.actor)).items[0]!.id,
    ).toBe(users.walt.id);
  });

  it('filters by role (`guest` = no role) and searches names and e-mails case-insensitively, wildcards taken literally', async () => {
    const { organizationId, users } = await seedOrganization(
      p.orgAdmin,
      { carla: 'edit', dan_o: 'edit', erin: null },
      { domain: 'search.example' },
    );
    const names = async (q: { role?: 'edit' | 'guest' | 'admin'; search?: string }) =>
      (
        await call(ops.listMembersInOrganizationById, { organizationId, order: 'asc', ...q }, users.carla.actor)
      ).items.map((m) => m.user.displayName);
    expect(await names({ role: 'edit' })).toEqual(['Carla', 'Dan_o']);
    expect(await names({ role: 'guest' })).toEqual(['Erin']);
    expect(await names({ role: 'admin' })).toEqual(['Ada Admin']);
    expect(await names({ search: 'CARL' })).toEqual(['Carla']);
    expect(await names({ search: 'SEARCH.example' })).toHaveLength(4);
    expect(await names({ search: 'n_o' })).toEqual(['Dan_o']);
    expect(await names({ search: 'a_a' })).toEqual([]);
    expect(await names({ search: '%' })).toEqual([]);
    expect(await names({ search: 'erin@', role: 'guest' })).toEqual(['Erin']);
    // A new display name reaches the search and the `name` sort at once (the copies on the membership follow the user).
    await call(
      ops.addUserToOrganization,
      { organizationId, email: users.carla.email, role: 'edit', name: 'Zoe Carla' },
      instanceAdmin,
    );
    expect(await names({ search: 'zoe' })).toEqual(['Zoe Carla']);
    const byName = await call(
      ops.listMembersInOrganizationById,
      { organizationId, sort: 'name', order: 'asc' },
      users.carla.actor,
    );
    expect(byName.items.map((m) => m.user.displayName)).toEqual(['Ada Admin', 'Dan_o', 'Erin', 'Zoe Carla']);
  });

  it('keeps the list from guests (403) and everything from other organizations (404)', async () => {
    const { organizationId, users } = await seedOrganization(p.orgAdmin, { gina: null, rob: 'read' });
    const other = await seedOrganization(p.orgAdmin, {});
    expect(await reasonOf(call(ops.listMembersInOrganizationById, { organizationId }, users.gina.actor))).toBe(
      'forbidden',
    );
    expect(
      (await call(ops.getMemberInOrganizationById, { organizationId, userId: users.gina.id }, users.gina.actor)).role,
    ).toBeNull();
    expect(
      await reasonOf(call(ops.getMemberInOrganizationById, { organizationId, userId: users.rob.id }, users.gina.actor)),
    ).toBe('forbidden');
    await expectReasons('not_found', [
      () => call(ops.listMembersInOrganizationById, { organizationId }, other.admin.actor),
      () => call(ops.getMemberInOrganizationById, { organizationId, userId: users.rob.id }, other.admin.actor),
      () =>
        call(
          ops.updateMemberInOrganizationById,
          { organizationId, userId: users.rob.id, role: 'admin' },
          other.admin.actor,
        ),
      () => call(ops.removeMemberFromOrganizationById, { organizationId, userId: users.rob.id }, other.admin.actor),
      () => call(ops.updateOrganizationMemberLastSeenAt, { organizationId }, other.admin.actor),
      () => call(ops.inviteUsersToOrganization, { organizationId, emails: ['x@y.io'] }, other.admin.actor),
    ]);
    expect(
      (await failureOf(call(ops.getMemberInOrganizationById, { organizationId, userId: 'nobody' }, users.rob.actor)))
        .message,
    ).toBe('Member not found');
  });

  it('answers 503 when the content service cannot be reached, rather than inventing space counts', async () => {
    const { organizationId, users } = await seedOrganization(p.orgAdmin, { rita: 'read' });
    p.orgAdmin.svc.deps.peers.setEndpoint('content', 'http://127.0.0.1:9');
    try {
      const err = await failureOf(call(ops.listMembersInOrganizationById, { organizationId }, users.rita.actor));
      expect(err).toMatchObject({ reason: 'unavailable', message: 'The content service is unavailable' });
    } finally {
      p.orgAdmin.svc.deps.peers.setEndpoint('content', p.content.url);
    }
  });
});

describe('members: changes', () => {
  it('lets admins change roles (null = guest) with an event, and keeps one admin', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { mia: 'read' });
    const promoted = await call(
      ops.updateMemberInOrganizationById,
      { organizationId, userId: users.mia.id, role: 'create' },
      admin.actor,
    );
    expect(promoted.role).toBe('create');
    const guest = await call(
      ops.updateMemberInOrganizationById,
      { organizationId, userId: users.mia.id, role: null },
      admin.actor,
    );
    expect(guest.role).toBeNull();
    expect(
      (await call(ops.getMemberInOrganizationById, { organizationId, userId: users.mia.id }, admin.actor)).role,
    ).toBeNull();
    const changes = (await eventTypes())
      .filter((e) => e.type === 'member.role-changed' && e.data.user === users.mia.id)
      .map((e) => e.data);
    expect(changes).toEqual([
      { organization: organizationId, user: users.mia.id, role: 'create', previousRole: 'read' },
      { organization: organizationId, user: users.mia.id, role: null, previousRole: 'create' },
    ]);
    await expectReasons('conflict', [
      () => call(ops.updateMemberInOrganizationById, { organizationId, userId: admin.id, role: 'read' }, admin.actor),
      () => call(ops.removeMemberFromOrganizationById, { organizationId, userId: admin.id }, admin.actor),
    ]);
    expect(
      await reasonOf(
        call(
          ops.updateMemberInOrganizationById,
          { organizationId, userId: admin.id, role: 'read' },
          userActor(users.mia.id, [{ organization: organizationId, role: 'edit' }]),
        ),
      ),
    ).toBe('forbidden');
  });

  it('removes a member with their team memberships, and says so on the outbox', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { nora: 'edit' });
    const team = await call(
      ops.createOrganizationTeam,
      { organizationId, title: 'Ops', members: [users.nora.id] },
      admin.actor,
    );
    await call(ops.removeMemberFromOrganizationById, { organizationId, userId: users.nora.id }, admin.actor);
    expect(
      await reasonOf(call(ops.getMemberInOrganizationById, { organizationId, userId: users.nora.id }, admin.actor)),
    ).toBe('not_found');
    expect((await call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, admin.actor)).members).toBe(
      0,
    );
    const events = (await eventTypes()).filter((e) => e.data.user === users.nora.id).map((e) => e.type);
    // The seeding gives Nora a token (`token.issued`, which the gateways' known-token filter learns from).
    expect(events).toEqual([
      'member.added',
      'token.issued',
      'team.member-added',
      'team.member-removed',
      'member.removed',
    ]);
    expect(
      await reasonOf(
        call(ops.removeMemberFromOrganizationById, { organizationId, userId: users.nora.id }, admin.actor),
      ),
    ).toBe('not_found');
  });

  it('pings: records the last-seen time and returns the member claims as a verifiable JWT', async () => {
    const { organizationId, users } = await seedOrganization(p.orgAdmin, { paul: 'comment', gus: null });
    const before = Date.now();
    const { serviceVisitorClaims } = await call(
      ops.updateOrganizationMemberLastSeenAt,
      { organizationId },
      users.paul.actor,
    );
    const claims = await verifyVisitorClaims(serviceVisitorClaims, {
      internalSecret: TEST_SECRET,
      issuer: 'http://quire.test',
    });
    expect(claims).toMatchObject({
      sub: users.paul.id,
      organization: organizationId,
      role: 'comment',
      sso: false,
      iss: 'http://quire.test',
    });
    expect(claims.exp - claims.iat).toBe(3600);
    const seen = await call(
      ops.getMemberInOrganizationById,
      { organizationId, userId: users.paul.id },
      users.paul.actor,
    );
    expect(Date.parse(seen.lastSeenAt!)).toBeGreaterThanOrEqual(before - 1000);

    const [header, payload, signature] = serviceVisitorClaims.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'admin' }),
    ).toString('base64url');
    await expect(
      verifyVisitorClaims(`${header}.${forged}.${signature}`, {
        internalSecret: TEST_SECRET,
        issuer: 'http://quire.test',
      }),
    ).rejects.toThrow(/signature/);
    await expect(
      verifyVisitorClaims(serviceVisitorClaims, {
        internalSecret: `${TEST_SECRET}-other`,
        issuer: 'http://quire.test',
      }),
    ).rejects.toThrow(/signature/);
    await expect(
      verifyVisitorClaims(serviceVisitorClaims, { internalSecret: TEST_SECRET, issuer: 'http://elsewhere' }),
    ).rejects.toThrow(/iss/);
    // Guests ping too; their role claim is null.
    const guest = await call(ops.updateOrganizationMemberLastSeenAt, { organizationId }, users.gus.actor);
    expect(
      (
        await verifyVisitorClaims(guest.serviceVisitorClaims, {
          internalSecret: TEST_SECRET,
          issuer: 'http://quire.test',
        })
      ).role,
    ).toBeNull();
  });

  it('marks a member as SSO (admins only)', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { sam: 'read' });
    expect(
      await reasonOf(
        call(ops.setUserAsSSOMemberForOrganization, { organizationId, userId: users.sam.id }, users.sam.actor),
      ),
    ).toBe('forbidden');
    expect(
      (await call(ops.setUserAsSSOMemberForOrganization, { organizationId, userId: users.sam.id }, admin.actor)).sso,
    ).toBe(true);
    expect(
      (await call(ops.getMemberInOrganizationById, { organizationId, userId: users.sam.id }, admin.actor)).sso,
    ).toBe(true);
  });

  it('invites by e-mail: creates users, applies roles, leaves existing members alone', async () => {
    const { organizationId, admin, users } = await seedOrganization(
      p.orgAdmin,
      { ivy: 'edit' },
      { domain: 'invite.example' },
    );
    const res = await call(
      ops.inviteUsersToOrganization,
      {
        organizationId,
        emails: [
          'New.One@Invite.example',
          { email: 'two@invite.example', role: null },
          users.ivy.email,
          'new.one@invite.example',
        ],
        role: 'comment',
      },
      admin.actor,
    );
    expect(res.invited).toBe(2);
    expect(res.users).toHaveLength(2);
    expect(res.failedSSOEmails).toBeUndefined();
    const list = await call(
      ops.listMembersInOrganizationById,
      { organizationId, search: 'invite.example', sort: 'name', order: 'asc' },
      admin.actor,
    );
    expect(list.items.map((m) => [m.user.email, m.role])).toEqual([
      ['admin@invite.example', 'admin'],
      ['ivy@invite.example', 'edit'],
      ['new.one@invite.example', 'comment'],
      ['two@invite.example', null],
    ]);
    expect(
      (await eventTypes()).filter((e) => e.type === 'member.added' && e.data.organization === organizationId),
    ).toHaveLength(4);
    // Without a role, the organization's default role, else `read`.
    expect(
      (await call(ops.inviteUsersToOrganization, { organizationId, emails: ['three@invite.example'] }, admin.actor))
        .invited,
    ).toBe(1);
    expect(
      (await call(ops.listMembersInOrganizationById, { organizationId, search: 'three@' }, admin.actor)).items[0]!.role,
    ).toBe('read');
    expect(
      await reasonOf(
        call(ops.inviteUsersToOrganization, { organizationId, emails: ['x@invite.example'] }, users.ivy.actor),
      ),
    ).toBe('forbidden');
    expect(
      (await failureOf(call(ops.inviteUsersToOrganization, { organizationId, emails: ['not-an-email'] }, admin.actor)))
        .message,
    ).toMatch(/emails\.0/);
  });

  it('an existing account joins only by accepting: the invitation, not the call, makes it a member', async () => {
    const { organizationId, admin } = await seedOrganization(p.orgAdmin, {}, { title: 'Hungry Org' });
    const other = await seedOrganization(p.orgAdmin, { olga: 'read' });
    const mails: { to: string; link: string }[] = [];
    const warn = vi.spyOn(p.orgAdmin.svc.deps.log, 'warn').mockImplementation(((obj: {
      to?: string;
      link?: string;
    }) => {
      if (obj?.link) mails.push({ to: obj.to!, link: obj.link });
    }) as never);
    const res = await call(
      ops.inviteUsersToOrganization,
      { organizationId, emails: [other.users.olga.email], role: 'admin' },
      admin.actor,
    ).finally(() => warn.mockRestore());
    expect(res).toEqual({ users: [other.users.olga.id], invited: 1 });
    expect(
      await reasonOf(
        call(ops.getMemberInOrganizationById, { organizationId, userId: other.users.olga.id }, admin.actor),
      ),
    ).toBe('not_found');
    expect(await eventTypes()).not.toContainEqual(
      expect.objectContaining({
        type: 'member.added',
        data: expect.objectContaining({ organization: organizationId, user: other.users.olga.id }),
      }),
    );
    // Her e-mail: the page names the organization; accepting (her click, with the form's CSRF token) makes her one.
    const mail = mails.find((m) => m.to === other.users.olga.email)!;
    const jar = new CookieJar();
    const page = await signInRequest(p.orgAdmin, '127.0.0.31', jar, 'GET', mail.link);
    expect(page.status).toBe(200);
    expect(page.body).toContain('You are invited to join Hungry Org with the role admin.');
    const form = {
      token: new URL(mail.link).searchParams.get('token')!,
      _csrf: /name="_csrf" value="([\w-]+)"/.exec(page.body)![1]!,
    };
    expect((await signInRequest(p.orgAdmin, '127.0.0.31', jar, 'POST', '/invites/accept', form)).status).toBe(303);
    expect(
      (await call(ops.getMemberInOrganizationById, { organizationId, userId: other.users.olga.id }, admin.actor)).role,
    ).toBe('admin');
    // Used once.
    expect((await signInRequest(p.orgAdmin, '127.0.0.31', new CookieJar(), 'GET', mail.link)).status).toBe(410);

    // Signed in, she sees another invitation on her account page and accepts it there (her click, her CSRF token).
    const third = await seedOrganization(p.orgAdmin, {}, { title: 'Third Org' });
    await call(
      ops.inviteUsersToOrganization,
      { organizationId: third.organizationId, emails: [other.users.olga.email], role: 'read' },
      third.admin.actor,
    );
    const account = await signInRequest(p.orgAdmin, '127.0.0.31', jar, 'GET', '/account');
    expect(account.body).toContain('<h2 id="invitations">Invitations</h2>');
    expect(account.body).toContain('Third Org (read)');
    const inviteId = /name="inviteId" value="([\w-]+)"/.exec(account.body)![1]!;
    const csrf = /name="_csrf" value="([\w-]+)"/.exec(account.body)![1]!;
    // Another account's session cannot accept it; without her CSRF token (a cross-site form) neither can she.
    const em = p.orgAdmin.em();
    const adminJar = new CookieJar();
    adminJar.take([await sessionStarter(em, { config: p.orgAdmin.svc.deps.config, userId: third.admin.id })]);
    await em.flush();
    const adminCsrf = /name="_csrf" value="([\w-]+)"/.exec(
      (await signInRequest(p.orgAdmin, '127.0.0.31', adminJar, 'GET', '/account')).body,
    )![1]!;
    expect(
      (
        await signInRequest(p.orgAdmin, '127.0.0.31', adminJar, 'POST', '/account/invites/accept', {
          inviteId,
          _csrf: adminCsrf,
        })
      ).status,
    ).toBe(410);
    expect(
      (await signInRequest(p.orgAdmin, '127.0.0.31', jar, 'POST', '/account/invites/accept', { inviteId })).status,
    ).toBe(403);
    const joined = await signInRequest(p.orgAdmin, '127.0.0.31', jar, 'POST', '/account/invites/accept', {
      inviteId,
      _csrf: csrf,
    });
    expect(joined.status).toBe(303);
    expect(
      (
        await call(
          ops.getMemberInOrganizationById,
          { organizationId: third.organizationId, userId: other.users.olga.id },
          third.admin.actor,
        )
      ).role,
    ).toBe('read');
    expect((await signInRequest(p.orgAdmin, '127.0.0.31', jar, 'GET', '/account')).body).not.toContain('Invitations');
    expect(
      (await signInRequest(p.orgAdmin, '127.0.0.31', jar, 'POST', '/account/invites/accept', { inviteId, _csrf: csrf }))
        .status,
    ).toBe(410);
  });

  it('invites SSO members, except users who already belong to another organization', async () => {
    const { organizationId, admin } = await seedOrganization(p.orgAdmin, {}, { domain: 'sso.example' });
    const other = await seedOrganization(p.orgAdmin, { olga: 'read' });
    const res = await call(
      ops.inviteUsersToOrganization,
      { organizationId, emails: ['fresh@sso.example', other.users.olga.email], sso: true },
      admin.actor,
    );
    expect(res).toMatchObject({ invited: 2, failedSSOEmails: [other.users.olga.email] });
    const list = await call(
      ops.listMembersInOrganizationById,
      { organizationId, sort: 'name', order: 'asc' },
      admin.actor,
    );
    // Olga's account existed: she is invited, not a member until she accepts.
    expect(list.items.map((m) => [m.user.email, m.sso])).toEqual([
      ['admin@sso.example', false],
      ['fresh@sso.example', true],
    ]);
  });

  it('lists the teams of a member, filtered by title', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { tom: 'read', una: 'read' });
    const tom = users.tom.id;
    const docs = await seedTeam(p.orgAdmin, organizationId, admin, { title: 'Docs Team', members: [tom], owner: tom });
    await seedTeam(p.orgAdmin, organizationId, admin, { title: 'Support', members: [tom, users.una.id] });
    const all = await call(
      ops.listTeamsForOrganizationMember,
      { organizationId, userId: users.tom.id },
      users.una.actor,
    );
    expect(all.count).toBe(2);
    expect(all.items.map((i) => [i.team.title, i.member.role, i.team.members]).sort()).toEqual([
      ['Docs Team', 'owner', 1],
      ['Support', 'member', 2],
    ]);
    expect(all.items.find((i) => i.team.title === 'Support')!.team.permissions).toEqual({ admin: false, view: true });
    const filtered = await call(
      ops.listTeamsForOrganizationMember,
      { organizationId, userId: users.tom.id, title: 'DOCS' },
      users.tom.actor,
    );
    expect(filtered.items.map((i) => i.team.id)).toEqual([docs.id]);
    expect(filtered.items[0]!.team.permissions).toEqual({ admin: true, view: true });
    expect(
      await reasonOf(call(ops.listTeamsForOrganizationMember, { organizationId, userId: 'nobody' }, users.tom.actor)),
    ).toBe('not_found');
  });

  it('lists the members for access decisions elsewhere (sites): role, teams, sort keys, filters; services only', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { nina: 'read', omar: null });
    const team = await call(
      ops.createOrganizationTeam,
      { organizationId, title: 'Crew', members: [users.nina.id, users.omar.id] },
      admin.actor,
    );
    await call(ops.updateOrganizationMemberLastSeenAt, { organizationId }, users.nina.actor);
    const sites: Actor = { kind: 'service', service: 'sites' };
    const list = async (input: { search?: string; team?: string; seenOnly?: boolean } = {}) =>
      (await call(ops.listMembersForAccess, { organizationId, ...input }, sites)).items;
    const all = await list();
    expect(all.map((m) => [m.userId, m.role, m.teams]).sort()).toEqual(
      [
        [admin.id, 'admin', []],
        [users.nina.id, 'read', [team.id]],
        [users.omar.id, null, [team.id]],
      ].sort(),
    );
    const nina = all.find((m) => m.userId === users.nina.id)!;
    expect(nina.lastSeenAt).toEqual(expect.any(String));
    expect(Date.parse(nina.joinedAt)).toBeLessThanOrEqual(Date.parse(nina.lastSeenAt!));
    expect(all.find((m) => m.userId === users.omar.id)!.lastSeenAt).toBeNull();
    expect((await list({ seenOnly: true })).map((m) => m.userId)).toEqual([users.nina.id]);
    expect((await list({ team: team.id })).map((m) => m.userId).sort()).toEqual([users.nina.id, users.omar.id].sort());
    expect((await list({ search: users.omar.email.toUpperCase() })).map((m) => m.userId)).toEqual([users.omar.id]);
    expect((await list({ team: 'no-such-team' })).length).toBe(0);
    expect(await reasonOf(call(ops.listMembersForAccess, { organizationId }, admin.actor))).toBe('forbidden');
  });

  it("fills the actor's teams when resolving a token", async () => {
    const { organizationId, admin } = await seedOrganization(p.orgAdmin, {});
    const { token } = await call(
      ops.addUserToOrganization,
      { organizationId, email: `vic-${Date.now()}@teams.example`, role: 'read' },
      instanceAdmin,
    );
    const { actor } = await call(ops.resolveToken, { tokenHash: sha256Hex(token) }, gateway);
    expect(actor?.kind === 'user' && actor.memberships).toEqual([
      { organization: organizationId, role: 'read', teams: [] },
    ]);
    const userId = actor?.kind === 'user' ? actor.userId : '';
    const a = await call(ops.createOrganizationTeam, { organizationId, title: 'A', members: [userId] }, admin.actor);
    const b = await call(ops.createOrganizationTeam, { organizationId, title: 'B', members: [userId] }, admin.actor);
    const again = (await call(ops.resolveToken, { tokenHash: sha256Hex(token) }, gateway)).actor;
    expect(again?.kind === 'user' && again.memberships[0]!.teams.sort()).toEqual([a.id, b.id].sort());
  });
});
