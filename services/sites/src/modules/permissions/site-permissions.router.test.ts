import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, ROLES, type Actor, type OperationOutput, type Role } from '@quire/contracts';
import { InProcessBus } from '@quire/kit';
import { eventually, failureOf, orgAdminDirectoryStub, testLogger, settledOutcomeOf } from '@quire/kit/testing';
import { startSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { sitePolicy } from '../sites/site.policy.ts';
import { siteGrantRepository } from './site-grant.repository.ts';

const ORG = 'org-sp';
const member = (userId: string, role: Role | null, teams: string[] = [], org = ORG): Actor => ({
  kind: 'user',
  userId,
  memberships: [{ organization: org, role, teams }],
});
const admin = member('ann', 'admin');
const stranger = member('olga', 'admin', [], 'org-other');
const RANK = (r: Role | null) => (r === null ? 0 : ROLES.length - ROLES.indexOf(r));

/** org-admin is not running here: its members and teams for this organization, served by a stub transport. */
const members = new Set(['ann', 'rita', 'carl', 'gus']);
const teams = new Set(['team-docs']);
/** The members org-admin lists for the aggregate of the organization `AGG_ORG` (`members.listForAccess`). */
const AGG_ORG = `${ORG}-agg`;
const ROSTER: OperationOutput<typeof ops.listMembersForAccess>['items'] = [
  {
    userId: 'ann',
    role: 'admin' as const,
    teams: [],
    joinedAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-03-01T00:00:00.000Z',
    sortName: 'ann',
  },
  {
    userId: 'rita',
    role: 'read' as const,
    teams: ['team-docs'],
    joinedAt: '2026-01-02T00:00:00.000Z',
    lastSeenAt: null,
    sortName: 'rita',
  },
  {
    userId: 'carl',
    role: 'read' as const,
    teams: [],
    joinedAt: '2026-01-03T00:00:00.000Z',
    lastSeenAt: '2026-02-01T00:00:00.000Z',
    sortName: 'carl',
  },
  {
    userId: 'gus',
    role: null,
    teams: ['team-docs'],
    joinedAt: '2026-01-04T00:00:00.000Z',
    lastSeenAt: null,
    sortName: 'gus',
  },
];
const stub = orgAdminDirectoryStub({
  inOrganization: (organizationId) => organizationId?.startsWith(ORG) ?? false,
  members: new Map<string, Role | null>([...members].map((id) => [id, 'read'])),
  teams,
  more: (path, input) => {
    if (path !== 'members.listForAccess') return undefined;
    const q = input as { organizationId: string; search?: string; team?: string; seenOnly: boolean };
    return {
      items: (q.organizationId === AGG_ORG ? ROSTER : []).filter(
        (m) =>
          (!q.search || m.sortName.includes(q.search.toLowerCase())) &&
          (!q.team || m.teams.includes(q.team)) &&
          (!q.seenOnly || m.lastSeenAt !== null),
      ),
    };
  },
});

let p: SitesPlatform;
let bus: InProcessBus;
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

beforeAll(async () => {
  bus = new InProcessBus(testLogger());
  p = await startSitesAndContent('sites-permissions', { bus });
  p.sites.svc.deps.peers.use('org-admin', stub);
});
afterAll(async () => {
  await p?.close();
  await bus?.close();
});

describe('site permission overrides', () => {
  it('org role × override (user or team) × action, and the list follows', async () => {
    const OVERRIDES: (Role | null | 'none')[] = ['none', null, 'read', 'create', 'admin'];
    const ORG_ROLES: (Role | null)[] = ['read', 'create', null];
    for (const orgRole of ORG_ROLES) {
      for (const holder of ['user', 'team'] as const) {
        const actor = member('rita', orgRole, holder === 'team' ? ['team-docs'] : []);
        for (const o of OVERRIDES) {
          const site = await call(ops.createSite, { organizationId: ORG, title: `S ${orgRole} ${holder} ${o}` }, admin);
          if (o !== 'none')
            await call(
              ops.inviteToSite,
              {
                organizationId: ORG,
                siteId: site.id,
                role: o,
                ...(holder === 'user' ? { users: ['rita'] } : { teams: ['team-docs'] }),
              },
              admin,
            );
          const want: Role | null = o === 'none' ? orgRole : o;
          const label = `${orgRole ?? 'guest'} with ${holder} override ${o}`;
          const allowed = (action: keyof typeof sitePolicy.actions) =>
            want === null ? 'not_found' : RANK(want) >= RANK(sitePolicy.actions[action] as Role) ? 'ok' : 'forbidden';
          expect(
            await settledOutcomeOf(call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, actor)),
            `${label}: view`,
          ).toBe(allowed('view'));
          expect(
            await settledOutcomeOf(
              call(ops.updateSiteById, { organizationId: ORG, siteId: site.id, title: 'Renamed' }, actor),
            ),
            `${label}: update`,
          ).toBe(allowed('update'));
          expect(
            await settledOutcomeOf(
              call(ops.listUserPermissionsInSite, { organizationId: ORG, siteId: site.id }, actor),
            ),
            `${label}: viewPermissions`,
          ).toBe(allowed('viewPermissions'));
          expect(
            await settledOutcomeOf(
              call(ops.removeTeamFromSite, { organizationId: ORG, siteId: site.id, teamId: 'team-x' }, actor),
            ),
            `${label}: managePermissions`,
          ).toBe(allowed('managePermissions'));
          if (want !== null)
            expect((await call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, actor)).permissions).toEqual(
              sitePolicy.permissions(want),
            );
          const listed = (await call(ops.listSites, { organizationId: ORG, limit: 100 }, actor)).items.map((s) => s.id);
          expect(listed.includes(site.id), `${label}: listed`).toBe(want !== null);
        }
      }
    }
    expect((await failureOf(call(ops.listSites, { organizationId: ORG }, stranger))).reason).toBe('not_found');
  }, 120_000);

  it('lists, updates and removes overrides; validates principals and callers', async () => {
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Lists' }, admin);
    const ids = { organizationId: ORG, siteId: site.id };
    await call(ops.inviteToSite, { ...ids, users: ['rita', 'carl'], teams: ['team-docs'], role: 'create' }, admin);
    expect(await call(ops.listUserPermissionsInSite, ids, admin)).toMatchObject({
      count: 2,
      items: [
        { permission: 'create', user: { id: 'carl' } },
        { permission: 'create', user: { id: 'rita' } },
      ],
    });
    expect(await call(ops.listTeamPermissionsInSite, ids, admin)).toMatchObject({
      count: 1,
      items: [{ permission: 'create', team: { id: 'team-docs' } }],
    });
    await call(ops.updateUserPermissionInSite, { ...ids, userId: 'carl', role: null }, admin);
    expect((await failureOf(call(ops.getSiteById, ids, member('carl', 'read')))).reason).toBe('not_found');
    expect(
      (await failureOf(call(ops.updateUserPermissionInSite, { ...ids, userId: 'gus', role: 'read' }, admin))).reason,
    ).toBe('not_found');
    expect(
      (await failureOf(call(ops.inviteToSite, { ...ids, users: ['nobody'], role: 'read' }, admin))).message,
    ).toMatch(/No member nobody/);
    expect(
      (await failureOf(call(ops.inviteToSite, { ...ids, teams: ['team-nope'], role: 'read' }, admin))).message,
    ).toMatch(/No team team-nope/);
    expect((await failureOf(call(ops.inviteToSite, { ...ids, role: 'read' } as never, admin))).message).toMatch(
      /users/,
    );
    expect(
      (await failureOf(call(ops.inviteToSite, { ...ids, users: ['gus'], role: 'read' }, member('gus', 'create'))))
        .reason,
    ).toBe('forbidden');
    expect((await failureOf(call(ops.listTeamPermissionsInSite, ids, stranger))).reason).toBe('not_found');
    await call(ops.removeUserFromSite, { ...ids, userId: 'carl' }, admin);
    await call(ops.removeTeamFromSite, { ...ids, teamId: 'team-docs' }, admin);
    expect((await call(ops.listUserPermissionsInSite, ids, admin)).items.map((i) => i.user.id)).toEqual(['rita']);
    expect((await call(ops.listTeamPermissionsInSite, ids, admin)).count).toBe(0);
    expect((await p.sites.outboxEvents('site.permissions-updated')).length).toBeGreaterThan(0);

    // A removed member's overrides go with them.
    const at = new Date().toISOString();
    await bus.publish('org-admin.member.removed', {
      id: `ev-rm-${at}`,
      type: 'member.removed',
      occurredAt: at,
      data: { organization: ORG, user: 'rita' },
    });
    await eventually(
      async () => (await siteGrantRepository.of(p.sites.em(), site.id)).length === 0,
      10_000,
      'the overrides removed',
    );
  });

  it('aggregates every member who can access the site, with the role, its origin, filters and keyset pages', async () => {
    const boss = member('ann', 'admin', [], AGG_ORG);
    const site = await call(ops.createSite, { organizationId: AGG_ORG, title: 'Aggregate' }, boss);
    const ids = { organizationId: AGG_ORG, siteId: site.id };
    await call(ops.inviteToSite, { ...ids, users: ['rita'], role: 'create' }, boss);
    await call(ops.inviteToSite, { ...ids, teams: ['team-docs'], role: 'read' }, boss);
    await call(ops.inviteToSite, { ...ids, users: ['carl'], role: null }, boss);
    const list = async (input: Record<string, unknown> = {}, actor = boss) =>
      call(ops.listPermissionsAggregateInSite, { ...ids, ...input } as never, actor);

    // Carl is closed out; Gus, a guest, reaches the site through his team; newest member first by default.
    const all = await list();
    expect(all.count).toBe(3);
    expect(all.items.map((i) => [i.user.id, i.permission, i.origin])).toEqual([
      ['gus', 'read', { type: 'site', site: site.id, reason: 'team', team: 'team-docs' }],
      ['rita', 'create', { type: 'site', site: site.id, reason: 'member' }],
      ['ann', 'admin', { type: 'organization', organization: AGG_ORG }],
    ]);
    expect(all.items[2]).toMatchObject({ disabled: false, lastSeenAt: '2026-03-01T00:00:00.000Z' });
    expect(all.items[0]).not.toHaveProperty('lastSeenAt');

    const usersOf = async (input: Record<string, unknown>) => (await list(input)).items.map((i) => i.user.id);
    expect(await usersOf({ role: 'guest' })).toEqual(['gus']);
    expect(await usersOf({ role: 'create' })).toEqual(['rita']);
    expect(await usersOf({ role: 'edit' })).toEqual([]);
    expect(await usersOf({ team: 'team-docs', order: 'asc' })).toEqual(['rita', 'gus']);
    expect(await usersOf({ search: 'RI' })).toEqual(['rita']);
    expect(await usersOf({ sort: 'lastSeenAt' })).toEqual(['ann']);
    expect(await usersOf({ sort: 'name', order: 'asc' })).toEqual(['ann', 'gus', 'rita']);

    const paged: string[] = [];
    let page: string | undefined;
    do {
      const res = await list({ sort: 'name', order: 'desc', limit: 2, ...(page ? { page } : {}) });
      expect(res.count).toBe(3);
      paged.push(...res.items.map((i) => i.user.id));
      page = res.next?.page;
    } while (page);
    expect(paged).toEqual(['rita', 'gus', 'ann']);
    expect((await failureOf(list({ page: 'nope' }))).reason).toBe('invalid_input');

    // Rita (create on the site) may read it; Carl (closed out) and another organization's admin see no site.
    expect((await list({}, member('rita', 'read', ['team-docs'], AGG_ORG))).count).toBe(3);
    expect((await failureOf(list({}, member('carl', 'read', [], AGG_ORG)))).reason).toBe('not_found');
    expect((await failureOf(list({}, stranger))).reason).toBe('not_found');
  });

  it("counts each member's sites (members.sites) as the list shows them", async () => {
    const org = `${ORG}-count`;
    const boss = member('ann', 'admin', [], org);
    const [a, b, c] = [
      await call(ops.createSite, { organizationId: org, title: 'Site A' }, boss),
      await call(ops.createSite, { organizationId: org, title: 'Site B' }, boss),
      await call(ops.createSite, { organizationId: org, title: 'Site C' }, boss),
    ];
    await call(ops.inviteToSite, { organizationId: org, siteId: a.id, users: ['rita'], role: null }, boss);
    await call(ops.inviteToSite, { organizationId: org, siteId: b.id, teams: ['team-docs'], role: 'read' }, boss);
    await call(ops.inviteToSite, { organizationId: org, siteId: c.id, teams: ['team-docs'], role: null }, boss);
    await call(ops.inviteToSite, { organizationId: org, siteId: c.id, users: ['rita'], role: 'read' }, boss);
    const who = [
      { userId: 'rita', role: 'read' as const, teams: ['team-docs'] },
      { userId: 'gus', role: null, teams: ['team-docs'] },
      { userId: 'carl', role: 'read' as const, teams: [] },
      { userId: 'ann', role: 'admin' as const, teams: [] },
    ];
    const { counts } = await call(
      ops.countMemberSites,
      { organizationId: org, members: who },
      { kind: 'service', service: 'org-admin' },
    );
    expect(counts).toEqual({ rita: 2, gus: 1, carl: 3, ann: 3 });
    for (const m of who)
      expect(
        (await call(ops.listSites, { organizationId: org }, member(m.userId, m.role, m.teams, org))).count,
        m.userId,
      ).toBe(counts[m.userId]);
  });
});
