import { beforeAll, describe, expect, it } from 'vitest';
import { settledOutcomeOf } from '@quire/kit/testing';
import { ops, ROLES, type Actor, type Role } from '@quire/contracts';
import {
  buildCollection,
  buildSpace,
  eventually,
  failureOf,
  orgAdmin,
  reasonOf,
  useTestService,
} from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { stubOrganizationMembers } from '../members/member.testing.ts';
import { spacePolicy } from '../spaces/space.policy.ts';
import { grantRepository, teamMemberRepository } from './grant.repository.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'content-permissions' });

const ORG = 'org-perm';
const admin = orgAdmin(ORG);
const member = (userId: string, role: Role | null, teams: string[] = [], org = ORG): Actor => ({
  kind: 'user',
  userId,
  memberships: [{ organization: org, role, teams }],
});
const stranger = member('stranger', 'admin', [], 'org-other');

const members = new Map<string, Role | null>([
  ['admin-of-org-perm', 'admin'],
  ['reader', 'read'],
  ['editor', 'edit'],
  ['guest', null],
  ['member-x', 'read'],
]);
const teams = new Set(['team-docs', 'team-empty', 'team-count']);
beforeAll(async () => {
  // org-admin is not running here: its members and teams for this organization, served by a stub, and the member
  // and team projections org-admin's events keep (their consumers are tested below).
  await stubOrganizationMembers(t, ORG, members, teams);
  await t.em().transactional(async (em) => {
    for (const userId of ['reader', 'editor', 'guest'])
      await teamMemberRepository.add(em, ORG, 'team-docs', userId, new Date().toISOString());
  });
});

const RANK = (r: Role | null) => (r === null ? 0 : ROLES.length - ROLES.indexOf(r));
/** The rule (docs/permissions.md) for a space inheriting from a restricted collection: the highest grant reaching the member. */
const expectedRole = (org: Role | null, collectionGrant: Role | null, spaceGrant: Role | null): Role | null =>
  org === 'admin'
    ? 'admin'
    : [collectionGrant, spaceGrant].reduce<Role | null>((a, b) => (RANK(b) > RANK(a) ? b : a), null);

describe('the permission matrix against the space operations (PostgreSQL)', () => {
  const ORG_ROLES: [string, Role | null][] = [
    ['reader', 'read'],
    ['editor', 'edit'],
    ['guest', null],
    ['admin-of-org-perm', 'admin'],
  ];
  const COLLECTION_GRANTS: (Role | null)[] = [null, 'edit'];
  const SPACE_GRANTS: (Role | null)[] = [null, 'comment', 'review', 'admin'];

  it('org role × team grant on a restricted collection × user grant on the space × view, permissions, edit, update, list', async () => {
    const cells: { space: string; collection: string; cg: Role | null; sg: Role | null }[] = [];
    for (const cg of COLLECTION_GRANTS) {
      const collection = await buildCollection(t, { org: ORG, as: admin, title: `grant ${cg}` });
      await t.call(ops.updateCollectionById, { collectionId: collection.id, defaultLevel: null }, admin);
      if (cg)
        await t.call(ops.inviteToCollection, { collectionId: collection.id, teams: ['team-docs'], role: cg }, admin);
      for (const sg of SPACE_GRANTS) {
        const space = await buildSpace(t, { org: ORG, as: admin, parent: collection.id, title: `${cg}/${sg}` });
        if (sg)
          await t.call(ops.inviteToSpace, { spaceId: space.id, users: ['reader', 'editor', 'guest'], role: sg }, admin);
        cells.push({ space: space.id, collection: collection.id, cg, sg });
      }
    }
    for (const [userId, orgRole] of ORG_ROLES) {
      const actor = member(userId, orgRole, orgRole === 'admin' ? [] : ['team-docs']);
      const listed = new Set(
        (await t.call(ops.listSpaces, { organizationId: ORG, limit: 100 }, actor)).items.map((s) => s.id),
      );
      for (const c of cells) {
        const want = expectedRole(orgRole, c.cg, c.sg);
        const label = `${userId} on collection grant ${c.cg} / space grant ${c.sg}`;
        const allowed = (action: keyof typeof spacePolicy.actions) =>
          want === null ? 'not_found' : RANK(want) >= RANK(spacePolicy.actions[action] as Role) ? 'ok' : 'forbidden';
        const got = await settledOutcomeOf(t.call(ops.getSpaceById, { spaceId: c.space }, actor));
        expect(got, `${label}: view`).toBe(allowed('view'));
        if (got === 'ok')
          expect(
            (await t.call(ops.getSpaceById, { spaceId: c.space }, actor)).permissions,
            `${label}: permissions`,
          ).toEqual(spacePolicy.permissions(want));
        expect(listed.has(c.space), `${label}: listed`).toBe(want !== null);
        const probes = {
          edit: () => t.call(ops.createChangeRequest, { spaceId: c.space, subject: 'x' }, actor),
          update: () => t.call(ops.updateSpaceById, { spaceId: c.space, emoji: '📘' }, actor),
          viewPermissions: () => t.call(ops.listUserPermissionsInSpace, { spaceId: c.space }, actor),
          managePermissions: () => t.call(ops.removeTeamFromSpace, { spaceId: c.space, teamId: 'team-none' }, actor),
        };
        for (const [action, probe] of Object.entries(probes) as [keyof typeof probes, () => Promise<unknown>][])
          expect(await settledOutcomeOf(probe()), `${label}: ${action}`).toBe(allowed(action));
      }
      // The collections: a restricted one is listed only where a grant reaches the member.
      const collections = new Set(
        (await t.call(ops.listCollectionsInOrganizationById, { organizationId: ORG, limit: 100 }, actor)).items.map(
          (c) => c.id,
        ),
      );
      for (const c of cells)
        expect(collections.has(c.collection), `${userId}: collection ${c.cg} listed`).toBe(
          orgRole === 'admin' || c.cg !== null,
        );
    }
    // Other organizations see nothing.
    for (const c of cells)
      expect(await settledOutcomeOf(t.call(ops.getSpaceById, { spaceId: c.space }, stranger))).toBe('not_found');
    expect(await settledOutcomeOf(t.call(ops.listUserPermissionsInSpace, { spaceId: cells[0]!.space }, stranger))).toBe(
      'not_found',
    );
  }, 120_000);
});

describe('inviting, listing, updating and removing', () => {
  it('a read member made edit on one space can edit that one only', async () => {
    const reader = member('reader', 'read');
    const one = await buildSpace(t, { org: ORG, as: admin });
    const other = await buildSpace(t, { org: ORG, as: admin });
    await t.call(ops.inviteToSpace, { spaceId: one.id, users: ['reader'], role: 'edit' }, admin);
    expect((await t.call(ops.getSpaceById, { spaceId: one.id }, reader)).permissions).toMatchObject({
      edit: true,
      admin: false,
    });
    expect((await t.call(ops.getSpaceById, { spaceId: other.id }, reader)).permissions).toMatchObject({
      view: true,
      edit: false,
    });
    await t.call(ops.createChangeRequest, { spaceId: one.id }, reader);
    expect(await reasonOf(t.call(ops.createChangeRequest, { spaceId: other.id }, reader))).toBe('forbidden');
    // A restricted space (level null) is seen only by those given a role on it.
    await t.call(ops.updateSpaceById, { spaceId: other.id, defaultLevel: null }, admin);
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: other.id }, reader))).toBe('not_found');
    const listed = await t.call(ops.listSpaces, { organizationId: ORG, limit: 100 }, reader);
    expect(listed.items.map((s) => s.id)).toContain(one.id);
    expect(listed.items.map((s) => s.id)).not.toContain(other.id);
  });

  it('lists users and teams, updates, removes; validates the principals and the caller', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    await t.call(
      ops.inviteToSpace,
      { spaceId: space.id, users: ['reader', 'editor'], teams: ['team-docs'], role: 'comment' },
      admin,
    );
    const users = await t.call(ops.listUserPermissionsInSpace, { spaceId: space.id, limit: 1 }, admin);
    expect(users).toMatchObject({ count: 2, items: [{ permission: 'comment', user: { id: 'editor' } }] });
    const next = await t.call(
      ops.listUserPermissionsInSpace,
      { spaceId: space.id, limit: 1, page: users.next!.page },
      admin,
    );
    expect(next.items.map((i) => i.user.id)).toEqual(['reader']);
    expect(next.next).toBeUndefined();
    expect(await t.call(ops.listTeamPermissionsInSpace, { spaceId: space.id }, admin)).toMatchObject({
      count: 1,
      items: [{ permission: 'comment', team: { id: 'team-docs', object: 'team' } }],
    });

    await t.call(ops.updateUserPermissionInSpace, { spaceId: space.id, userId: 'reader', role: 'review' }, admin);
    await t.call(ops.updateTeamPermissionInSpace, { spaceId: space.id, teamId: 'team-docs', role: 'edit' }, admin);
    expect(
      (await t.call(ops.listUserPermissionsInSpace, { spaceId: space.id }, admin)).items.map((i) => [
        i.user.id,
        i.permission,
      ]),
    ).toEqual([
      ['editor', 'comment'],
      ['reader', 'review'],
    ]);
    expect(
      await reasonOf(
        t.call(ops.updateUserPermissionInSpace, { spaceId: space.id, userId: 'member-x', role: 'edit' }, admin),
      ),
    ).toBe('not_found');
    expect(
      (await failureOf(t.call(ops.inviteToSpace, { spaceId: space.id, users: ['nobody'], role: 'read' }, admin)))
        .message,
    ).toMatch(/No member nobody/);
    expect(
      (await failureOf(t.call(ops.inviteToSpace, { spaceId: space.id, teams: ['team-nope'], role: 'read' }, admin)))
        .message,
    ).toMatch(/No team team-nope/);
    expect(
      (await failureOf(t.call(ops.inviteToSpace, { spaceId: space.id, role: 'read' } as never, admin))).message,
    ).toMatch(/users/);
    expect(
      (
        await failureOf(
          t.call(ops.inviteToSpace, { spaceId: space.id, users: ['member-x'], role: 'owner' } as never, admin),
        )
      ).message,
    ).toMatch(/role/);
    expect(
      await reasonOf(
        t.call(ops.inviteToSpace, { spaceId: space.id, users: ['member-x'], role: 'read' }, member('editor', 'edit')),
      ),
    ).toBe('forbidden');

    // The aggregate: every member who can access the space, with the role the policy gives them.
    const aggregate = await t.call(ops.listPermissionsAggregateInSpace, { spaceId: space.id, limit: 100 }, admin);
    const roles = Object.fromEntries(aggregate.items.map((i) => [i.user.id, i.permission]));
    expect(roles).toEqual({
      'admin-of-org-perm': 'admin',
      reader: 'review',
      editor: 'edit',
      guest: 'edit',
      'member-x': 'read',
    });
    expect(
      (await t.call(ops.listPermissionsAggregateInSpace, { spaceId: space.id, role: 'edit' }, admin)).items.map(
        (i) => i.user.id,
      ),
    ).toEqual(['editor', 'guest']);

    // Removing: the user, then the team; role null on an invite removes too.
    await t.call(ops.removeUserFromSpace, { spaceId: space.id, userId: 'reader' }, admin);
    await t.call(ops.removeTeamFromSpace, { spaceId: space.id, teamId: 'team-docs' }, admin);
    await t.call(ops.inviteToSpace, { spaceId: space.id, users: ['editor'], role: null }, admin);
    expect((await t.call(ops.listUserPermissionsInSpace, { spaceId: space.id }, admin)).count).toBe(0);
    expect((await t.call(ops.listTeamPermissionsInSpace, { spaceId: space.id }, admin)).count).toBe(0);
    expect(
      (await t.outboxEvents('permissions.updated')).some((e) => (e.data as { space?: string }).space === space.id),
    ).toBe(true);
  });

  it('collections: a grant reaches the spaces inheriting from it, not one with a level of its own', async () => {
    const collection = await buildCollection(t, { org: ORG, as: admin });
    await t.call(ops.updateCollectionById, { collectionId: collection.id, defaultLevel: null }, admin);
    const inheriting = await buildSpace(t, { org: ORG, as: admin, parent: collection.id });
    const own = await buildSpace(t, { org: ORG, as: admin, parent: collection.id });
    await t.call(ops.updateSpaceById, { spaceId: own.id, defaultLevel: null }, admin);
    await t.call(ops.inviteToCollection, { collectionId: collection.id, users: ['member-x'], role: 'edit' }, admin);
    const x = member('member-x', 'read');
    expect((await t.call(ops.getCollectionById, { collectionId: collection.id }, x)).permissions).toMatchObject({
      view: true,
      admin: false,
    });
    expect((await t.call(ops.getSpaceById, { spaceId: inheriting.id }, x)).permissions.edit).toBe(true);
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: own.id }, x))).toBe('not_found');
    expect(
      (await t.call(ops.listSpacesInCollectionById, { collectionId: collection.id }, x)).items.map((s) => s.id),
    ).toEqual([inheriting.id]);
    expect((await t.call(ops.listUserPermissionsInCollection, { collectionId: collection.id }, x)).items).toMatchObject(
      [{ permission: 'edit', user: { id: 'member-x' } }],
    );
    expect(
      (
        await t.call(ops.listPermissionsAggregateInCollection, { collectionId: collection.id, limit: 100 }, admin)
      ).items.map((i) => i.user.id),
    ).toEqual(['admin-of-org-perm', 'member-x']);
    await t.call(
      ops.updateUserPermissionInCollection,
      { collectionId: collection.id, userId: 'member-x', role: 'read' },
      admin,
    );
    expect((await t.call(ops.getSpaceById, { spaceId: inheriting.id }, x)).permissions.edit).toBe(false);
    await t.call(ops.removeUserFromCollection, { collectionId: collection.id, userId: 'member-x' }, admin);
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: inheriting.id }, x))).toBe('not_found');
  });
});

describe("a team's spaces (Team.spaces)", () => {
  it('counts the live spaces its grants reach: on the space, or through the collections it inherits from', async () => {
    const handbook = await buildCollection(t, { org: ORG, as: admin });
    const inside = await buildSpace(t, { org: ORG, as: admin, parent: handbook.id });
    const ownLevel = await buildSpace(t, { org: ORG, as: admin, parent: handbook.id });
    await t.call(ops.updateSpaceById, { spaceId: ownLevel.id, defaultLevel: 'read' }, admin);
    const nested = await buildCollection(t, { org: ORG, as: admin, parent: handbook.id });
    const deep = await buildSpace(t, { org: ORG, as: admin, parent: nested.id });
    const direct = await buildSpace(t, { org: ORG, as: admin });
    const trashed = await buildSpace(t, { org: ORG, as: admin });
    await buildSpace(t, { org: ORG, as: admin });
    const service: Actor = { kind: 'service', service: 'org-admin' };
    const count = async () =>
      (await t.call(ops.countTeamSpaces, { organizationId: ORG, teams: ['team-count', 'team-none'] }, service)).counts;
    expect(await count()).toEqual({ 'team-count': 0, 'team-none': 0 });

    await t.call(ops.inviteToCollection, { collectionId: handbook.id, teams: ['team-count'], role: 'read' }, admin);
    for (const spaceId of [inside.id, direct.id, trashed.id])
      await t.call(ops.inviteToSpace, { spaceId, teams: ['team-count'], role: 'edit' }, admin);
    await t.call(ops.deleteSpaceById, { spaceId: trashed.id }, admin);
    // inside (twice reached, once counted), deep (through the nested collection), direct; not ownLevel (a level of
    // its own stops the collection's grants), not the trashed one, not the space nobody gave the team.
    expect(await count()).toEqual({ 'team-count': 3, 'team-none': 0 });
    expect(deep.id).toBeDefined();

    await t.call(ops.removeTeamFromCollection, { collectionId: handbook.id, teamId: 'team-count' }, admin);
    expect((await count())['team-count']).toBe(2);
    expect(await reasonOf(t.call(ops.countTeamSpaces, { organizationId: ORG, teams: [] }, admin))).toBe('forbidden');
  });
});

describe('grants follow org-admin and transfers', () => {
  it("a removed member's grants go with them; a deleted team's grants go with it", async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    await t.call(
      ops.inviteToSpace,
      { spaceId: space.id, users: ['member-x'], teams: ['team-empty'], role: 'edit' },
      admin,
    );
    const publish = (type: string, data: unknown) => {
      const at = new Date().toISOString();
      return t.svc.deps.bus.publish(`org-admin.${type}`, {
        id: `ev-${type}-${at}-${Math.random()}`,
        type,
        occurredAt: at,
        data,
      });
    };
    await publish('member.removed', { organization: ORG, user: 'member-x' });
    await publish('team.deleted', { organization: ORG, team: 'team-empty' });
    await eventually(
      async () => (await grantRepository.ofOrganization(t.em(), ORG)).spaces.get(space.id) === undefined,
      10_000,
      'the grants removed',
    );
  });

  it('a transferred space keeps the user grants of members of the target organization, not team grants', async () => {
    const space = await buildSpace(t, { org: ORG, as: admin });
    await t.call(
      ops.inviteToSpace,
      { spaceId: space.id, users: ['reader', 'editor'], teams: ['team-docs'], role: 'edit' },
      admin,
    );
    await t
      .em()
      .getConnection()
      .execute(
        `insert into content.member (organization_id, user_id, role, event_at) values ('org-target', 'reader', null, now()), ('org-target', 'admin-of-org-perm', 'admin', now())`,
      );
    const both: Actor = {
      kind: 'user',
      userId: 'admin-of-org-perm',
      memberships: [
        { organization: ORG, role: 'admin', teams: [] },
        { organization: 'org-target', role: 'admin', teams: [] },
      ],
    };
    await t.call(ops.transferSpace, { spaceId: space.id, organization: 'org-target' }, both);
    const grants = (await grantRepository.ofOrganization(t.em(), 'org-target')).spaces.get(space.id);
    expect(grants).toEqual([{ kind: 'user', id: 'reader', role: 'edit' }]);
    // The guest of the target organization given edit on the space sees it there.
    expect(
      (await t.call(ops.getSpaceById, { spaceId: space.id }, member('reader', null, [], 'org-target'))).permissions
        .edit,
    ).toBe(true);
  });
});
