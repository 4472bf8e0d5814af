import { beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { OutboxEvent } from '@quire/kit';
import { expectReasons, failureOf, reasonOf } from '@quire/kit/testing';
import { seedOrganization, seedTeam, type Platform, useOrgAdminAndContent } from '../../test-support.ts';

const p = useOrgAdminAndContent('teams');

beforeAll(async () => {
  // Content asks org-admin about the teams it is asked to give a role (`inviteToSpace`).
  p.content.svc.deps.peers.setEndpoint('org-admin', p.orgAdmin.url);
});

const call: Platform['orgAdmin']['call'] = (op, input, actor) => p.orgAdmin.call(op, input, actor);
const outbox = async (type: string) =>
  (await p.orgAdmin.svc.deps.orm.em.fork().find(OutboxEvent, { type }, { orderBy: { seq: 'asc' } })).map(
    (e) => (e.payload as { data: Record<string, unknown> }).data,
  );
/** The team's members as [name, team role], sorted by name (members added by one request share their `addedAt`). */
const memberIds = async (organizationId: string, teamId: string, actor: Parameters<typeof call>[2]) =>
  (await call(ops.listTeamMembersInOrganizationById, { organizationId, teamId }, actor)).items
    .map((i) => [i.organization.user.displayName, i.team.role])
    .sort((a, b) => a[0]!.localeCompare(b[0]!));

describe('teams', () => {
  it('creates a team with members, then reads, renames and deletes it', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { amy: 'edit', ben: 'read' });
    const team = await call(
      ops.createOrganizationTeam,
      { organizationId, title: ' Writers ', members: [users.amy.id, users.ben.id, users.amy.id] },
      admin.actor,
    );
    expect(team).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    expect(await outbox('team.created')).toContainEqual({
      organization: organizationId,
      team: team.id,
      title: 'Writers',
    });
    expect(await call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, users.ben.actor)).toEqual({
      ...team,
      permissions: { admin: false, view: true },
    });

    const renamed = await call(
      ops.updateTeamInOrganizationById,
      { organizationId, teamId: team.id, title: 'Editors' },
      admin.actor,
    );
    expect(renamed).toMatchObject({ id: team.id, title: 'Editors', members: 2 });
    for (const [title, message] of [
      ['', /title: Too small/],
      ['x'.repeat(65), /title: Too big/],
    ] as const) {
      const err = await failureOf(
        call(ops.updateTeamInOrganizationById, { organizationId, teamId: team.id, title }, admin.actor),
      );
      expect(err).toMatchObject({ reason: 'invalid_input' });
      expect(err.message).toMatch(message);
    }
    expect(
      (await call(ops.createOrganizationTeam, { organizationId, title: 'x'.repeat(64) }, admin.actor)).title,
    ).toHaveLength(64);

    await call(ops.removeTeamFromOrganizationById, { organizationId, teamId: team.id }, admin.actor);
    expect(
      (await failureOf(call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, admin.actor))).message,
    ).toBe('Team not found');
    expect(await outbox('team.deleted')).toContainEqual({ organization: organizationId, team: team.id });
    expect(
      (await call(ops.getMemberInOrganizationById, { organizationId, userId: users.amy.id }, admin.actor)).teams,
    ).toBe(0);
  });

  it('counts the spaces the team was given a role on, from the content service', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { cat: 'read' });
    const team = await seedTeam(p.orgAdmin, organizationId, admin, { title: 'Docs', members: [users.cat.id] });
    expect(team.spaces).toBe(0);
    const space = (title: string) => p.content.call(ops.createSpace, { organizationId, title }, admin.actor);
    const [one, two] = [await space('One'), await space('Two')];
    await space('Three');
    for (const s of [one, two])
      await p.content.call(ops.inviteToSpace, { spaceId: s.id, teams: [team.id], role: 'edit' }, admin.actor);
    expect(
      (await call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, users.cat.actor)).spaces,
    ).toBe(2);
    expect((await call(ops.listTeamsInOrganizationById, { organizationId }, admin.actor)).items).toEqual([
      expect.objectContaining({ id: team.id, spaces: 2 }),
    ]);
    await p.content.call(ops.removeTeamFromSpace, { spaceId: two.id, teamId: team.id }, admin.actor);
    expect(
      (await call(ops.listTeamsForOrganizationMember, { organizationId, userId: users.cat.id }, admin.actor)).items,
    ).toEqual([expect.objectContaining({ team: expect.objectContaining({ id: team.id, spaces: 1 }) })]);
    // Content presents the team it lists with the same count.
    expect((await p.content.call(ops.listTeamPermissionsInSpace, { spaceId: one.id }, admin.actor)).items).toEqual([
      { permission: 'edit', team: expect.objectContaining({ id: team.id, spaces: 1 }) },
    ]);
  });

  it('refuses non-members as team members (400 naming the field for bodies, 404 for the path)', async () => {
    const { organizationId, admin } = await seedOrganization(p.orgAdmin, {});
    const other = await seedOrganization(p.orgAdmin, { oscar: 'read' });
    const err = await failureOf(
      call(ops.createOrganizationTeam, { organizationId, title: 'T', members: [other.users.oscar.id] }, admin.actor),
    );
    expect(err).toMatchObject({
      reason: 'invalid_input',
      message: `Invalid request: members: "${other.users.oscar.id}" is not a member of the organization`,
    });
    const team = await call(ops.createOrganizationTeam, { organizationId, title: 'T' }, admin.actor);
    expect(
      (
        await failureOf(
          call(
            ops.updateMembersInOrganizationTeam,
            { organizationId, teamId: team.id, add: [other.users.oscar.email] },
            admin.actor,
          ),
        )
      ).message,
    ).toMatch(/^Invalid request: add: "oscar@/);
    expect(
      (
        await failureOf(
          call(
            ops.updateMembersInOrganizationTeam,
            { organizationId, teamId: team.id, memberships: { [other.users.oscar.id]: { role: 'owner' } } },
            admin.actor,
          ),
        )
      ).message,
    ).toMatch(/^Invalid request: memberships: /);
    expect(
      (
        await failureOf(
          call(
            ops.addMemberToOrganizationTeamById,
            { organizationId, teamId: team.id, userId: other.users.oscar.id },
            admin.actor,
          ),
        )
      ).message,
    ).toBe('Member not found');
    expect((await call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, admin.actor)).members).toBe(
      0,
    );
  });

  it('lists teams filtered by title and by the member who can manage them', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { owen: 'read', mel: 'read' });
    const alpha = await call(ops.createOrganizationTeam, { organizationId, title: 'Alpha_Squad' }, admin.actor);
    await seedTeam(p.orgAdmin, organizationId, admin, {
      title: 'Beta squad',
      members: [users.mel.id],
      owner: users.owen.id,
    });
    const gamma = await call(ops.createOrganizationTeam, { organizationId, title: 'Gamma' }, admin.actor);
    const titles = async (q: { title?: string; owner?: string }) =>
      (await call(ops.listTeamsInOrganizationById, { organizationId, ...q }, users.mel.actor)).items.map(
        (t) => t.title,
      );
    expect(await titles({})).toEqual(['Alpha_Squad', 'Beta squad', 'Gamma']);
    expect(await titles({ title: 'SQUAD' })).toEqual(['Alpha_Squad', 'Beta squad']);
    expect(await titles({ title: 'a_s' })).toEqual(['Alpha_Squad']);
    expect(await titles({ owner: users.owen.id })).toEqual(['Beta squad']);
    expect(await titles({ owner: users.mel.id })).toEqual([]);
    expect(await titles({ owner: admin.id })).toEqual(['Alpha_Squad', 'Beta squad', 'Gamma']);
    expect(await titles({ owner: 'not-a-member' })).toEqual([]);
    const page = await call(ops.listTeamsInOrganizationById, { organizationId, limit: 2 }, users.owen.actor);
    expect(page).toMatchObject({ count: 3 });
    expect(page.items.map((t) => [t.title, t.members, t.permissions.admin])).toEqual([
      ['Alpha_Squad', 0, false],
      ['Beta squad', 2, true],
    ]);
    expect(
      (
        await call(
          ops.listTeamsInOrganizationById,
          { organizationId, limit: 2, page: page.next!.page },
          users.owen.actor,
        )
      ).items.map((t) => t.id),
    ).toEqual([gamma.id]);
    expect(alpha.id).not.toBe(gamma.id);
  });

  it('bulk-updates members: ids or e-mails, roles by id, and a user in both add and remove ends up removed', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, {
      cat: 'read',
      dov: 'read',
      eli: 'read',
      fay: 'read',
    });
    const team = await seedTeam(p.orgAdmin, organizationId, admin, { title: 'Bulk', members: [users.fay.id] });
    await call(
      ops.updateMembersInOrganizationTeam,
      {
        organizationId,
        teamId: team.id,
        add: [users.cat.id, users.dov.email.toUpperCase(), users.eli.id],
        remove: [users.eli.email, users.fay.id, 'nobody@nowhere.io'],
        memberships: { [users.dov.id]: { role: 'owner' } },
      },
      admin.actor,
    );
    expect(await memberIds(organizationId, team.id, admin.actor)).toEqual([
      ['Cat', 'member'],
      ['Dov', 'owner'],
    ]);
    // `memberships` alone adds with the role or changes it; removal also wins over it.
    await call(
      ops.updateMembersInOrganizationTeam,
      {
        organizationId,
        teamId: team.id,
        memberships: {
          [users.cat.id]: { role: 'owner' },
          [users.eli.id]: { role: 'member' },
          [users.fay.id]: { role: 'owner' },
        },
        remove: [users.fay.id],
      },
      admin.actor,
    );
    expect(await memberIds(organizationId, team.id, admin.actor)).toEqual([
      ['Cat', 'owner'],
      ['Dov', 'owner'],
      ['Eli', 'member'],
    ]);
    const added = (await outbox('team.member-added')).filter((e) => e.team === team.id).map((e) => [e.user, e.role]);
    // One request applies its members in user id order (two bulk updates at once lock rows alike).
    expect(added[0]).toEqual([users.fay.id, 'member']);
    expect(added.slice(1, 3)).toEqual(
      expect.arrayContaining([
        [users.cat.id, 'member'],
        [users.dov.id, 'owner'],
      ]),
    );
    expect(added.slice(3)).toEqual([[users.eli.id, 'member']]);
    expect((await outbox('team.member-removed')).filter((e) => e.team === team.id).map((e) => e.user)).toEqual([
      users.fay.id,
    ]);
    expect((await outbox('team.member-role-changed')).filter((e) => e.team === team.id)).toEqual([
      { organization: organizationId, team: team.id, user: users.cat.id, role: 'owner', previousRole: 'member' },
    ]);
  });

  it('answers 8 member PUTs at once, alone and racing a DELETE of the member or of the team, in documented statuses', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { amy: 'edit', ben: 'read' });
    const teamId = (await call(ops.createOrganizationTeam, { organizationId, title: 'Racers' }, admin.actor)).id;
    const ids = { organizationId, teamId };
    const put = (userId: string, role?: 'owner' | 'member') =>
      call(ops.addMemberToOrganizationTeamById, { ...ids, userId, ...(role ? { role } : {}) }, admin.actor);
    const bulk = () =>
      call(
        ops.updateMembersInOrganizationTeam,
        { ...ids, add: [users.ben.id, users.amy.id], memberships: { [users.amy.id]: { role: 'owner' } } },
        admin.actor,
      );
    const outcome = (r: Promise<unknown>) =>
      r.then(
        () => 'ok',
        (e: unknown) => (e as { reason?: string }).reason ?? String(e),
      );

    expect(
      new Set(
        await Promise.all([
          ...Array.from({ length: 6 }, () => outcome(put(users.amy.id))),
          outcome(bulk()),
          outcome(bulk()),
        ]),
      ),
    ).toEqual(new Set(['ok']));
    expect(await memberIds(organizationId, teamId, admin.actor)).toEqual([
      ['Amy', 'owner'],
      ['Ben', 'member'],
    ]);
    expect((await outbox('team.member-added')).filter((e) => e.team === teamId)).toHaveLength(2);

    const roles = await Promise.all(
      Array.from({ length: 8 }, (_, i) => outcome(put(users.amy.id, i % 2 ? 'owner' : 'member'))),
    );
    expect(new Set(roles)).toEqual(new Set(['ok']));
    const racedDelete = await Promise.all([
      ...Array.from({ length: 6 }, () => outcome(put(users.ben.id))),
      ...Array.from({ length: 2 }, () =>
        outcome(call(ops.deleteMemberFromOrganizationTeamById, { ...ids, userId: users.ben.id }, admin.actor)),
      ),
    ]);
    expect(racedDelete.filter((r) => r !== 'ok').every((r) => r === 'not_found')).toBe(true);
    expect(racedDelete.slice(6)).toContain('ok');

    const racedTeam = await Promise.all([
      ...Array.from({ length: 6 }, () => outcome(put(users.ben.id, 'owner'))),
      outcome(call(ops.removeTeamFromOrganizationById, ids, admin.actor)),
      outcome(bulk()),
    ]);
    expect(racedTeam[6]).toBe('ok');
    expect(racedTeam.filter((r) => r !== 'ok').every((r) => r === 'not_found')).toBe(true);
    expect(await reasonOf(call(ops.getTeamInOrganizationById, ids, admin.actor))).toBe('not_found');
  });

  it('lists team members as organization members with their team role', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { gil: 'edit', hal: 'read' });
    await p.content.call(ops.createSpace, { organizationId, title: 'Space' }, admin.actor);
    const team = await seedTeam(p.orgAdmin, organizationId, admin, {
      title: 'Readers',
      members: [users.gil.id, users.hal.id],
      owner: users.hal.id,
    });
    const first = await call(
      ops.listTeamMembersInOrganizationById,
      { organizationId, teamId: team.id, limit: 1 },
      users.gil.actor,
    );
    expect(first.count).toBe(2);
    const second = await call(
      ops.listTeamMembersInOrganizationById,
      { organizationId, teamId: team.id, limit: 1, page: first.next!.page },
      users.gil.actor,
    );
    expect(second.next).toBeUndefined();
    const items = [...first.items, ...second.items].sort((a, b) =>
      a.organization.user.displayName.localeCompare(b.organization.user.displayName),
    );
    expect(items[0]).toMatchObject({
      organization: {
        object: 'member',
        id: users.gil.id,
        role: 'edit',
        teams: 1,
        spaces: 1,
        user: { email: users.gil.email },
      },
      team: { role: 'member' },
      permissions: { view: true },
    });
    expect(items[1]).toMatchObject({ organization: { id: users.hal.id, role: 'read' }, team: { role: 'owner' } });
  });

  it('lets team owners manage their team members, not the team; others get 403, guests 403 on lists, other organizations 404', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, {
      ora: 'read',
      rex: 'read',
      guy: null,
      ian: 'read',
    });
    const other = await seedOrganization(p.orgAdmin, {});
    const team = await seedTeam(p.orgAdmin, organizationId, admin, {
      title: 'Owned',
      members: [users.rex.id],
      owner: users.ora.id,
    });

    // The owner (a `read` member) manages members…
    await call(
      ops.addMemberToOrganizationTeamById,
      { organizationId, teamId: team.id, userId: users.ian.id },
      users.ora.actor,
    );
    await call(
      ops.deleteMemberFromOrganizationTeamById,
      { organizationId, teamId: team.id, userId: users.rex.id },
      users.ora.actor,
    );
    await call(
      ops.updateMembersInOrganizationTeam,
      { organizationId, teamId: team.id, memberships: { [users.ian.id]: { role: 'owner' } } },
      users.ora.actor,
    );
    expect(await memberIds(organizationId, team.id, users.ora.actor)).toEqual([
      ['Ian', 'owner'],
      ['Ora', 'owner'],
    ]);
    // …but neither renames nor deletes the team, nor creates teams.
    await expectReasons('forbidden', [
      () => call(ops.updateTeamInOrganizationById, { organizationId, teamId: team.id, title: 'Mine' }, users.ora.actor),
      () => call(ops.removeTeamFromOrganizationById, { organizationId, teamId: team.id }, users.ora.actor),
      () => call(ops.createOrganizationTeam, { organizationId, title: 'New' }, users.ora.actor),
    ]);

    // A `read` member outside the team: may look, not manage.
    expect(
      (await call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, users.rex.actor)).permissions,
    ).toEqual({ admin: false, view: true });
    await expectReasons('forbidden', [
      () =>
        call(
          ops.addMemberToOrganizationTeamById,
          { organizationId, teamId: team.id, userId: users.rex.id },
          users.rex.actor,
        ),
      () =>
        call(
          ops.updateMembersInOrganizationTeam,
          { organizationId, teamId: team.id, add: [users.rex.id] },
          users.rex.actor,
        ),
      () =>
        call(
          ops.deleteMemberFromOrganizationTeamById,
          { organizationId, teamId: team.id, userId: users.ian.id },
          users.rex.actor,
        ),
    ]);
    expect(
      (
        await failureOf(
          call(
            ops.deleteMemberFromOrganizationTeamById,
            { organizationId, teamId: team.id, userId: users.rex.id },
            users.ora.actor,
          ),
        )
      ).message,
    ).toBe('Team member not found');

    // Guests cannot list teams (403) and do not see teams they are not in (404).
    expect(await reasonOf(call(ops.listTeamsInOrganizationById, { organizationId }, users.guy.actor))).toBe(
      'forbidden',
    );
    expect(
      await reasonOf(call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, users.guy.actor)),
    ).toBe('not_found');

    await expectReasons('not_found', [
      () => call(ops.listTeamsInOrganizationById, { organizationId }, other.admin.actor),
      () => call(ops.getTeamInOrganizationById, { organizationId, teamId: team.id }, other.admin.actor),
      () =>
        call(
          ops.getTeamInOrganizationById,
          { organizationId: other.organizationId, teamId: team.id },
          other.admin.actor,
        ),
      () => call(ops.listTeamMembersInOrganizationById, { organizationId, teamId: team.id }, other.admin.actor),
      () => call(ops.removeTeamFromOrganizationById, { organizationId, teamId: team.id }, other.admin.actor),
      () =>
        call(
          ops.addMemberToOrganizationTeamById,
          { organizationId, teamId: team.id, userId: other.admin.id },
          other.admin.actor,
        ),
    ]);
  });

  it('reports team ownership on the organization (`permissions.ownTeam`)', async () => {
    const { organizationId, admin, users } = await seedOrganization(p.orgAdmin, { pia: 'read' });
    expect((await call(ops.getOrganizationById, { organizationId }, users.pia.actor)).permissions.ownTeam).toBe(false);
    await seedTeam(p.orgAdmin, organizationId, admin, { title: 'Pia team', owner: users.pia.id });
    expect((await call(ops.getOrganizationById, { organizationId }, users.pia.actor)).permissions.ownTeam).toBe(true);
    expect(
      (await call(ops.listOrganizationsForAuthenticatedUser, {}, users.pia.actor)).items[0]!.permissions.ownTeam,
    ).toBe(true);
  });
});
