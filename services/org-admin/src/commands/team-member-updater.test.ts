import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../env.ts';
import { Team, TeamMember } from '../modules/teams/team.entity.ts';
import { orgAdminService } from '../service.ts';
import { seedOrganization } from '../test-support.ts';
import {
  teamCreator,
  teamDeleter,
  teamMemberDeleter,
  teamMembersUpdater,
  teamMemberUpserter,
  type TeamMembersUpdaterProps,
} from './team-member-updater.ts';

const t = useTestService(orgAdminService, loadOrgAdminConfig, { label: 'team-members' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};
/** The team's members as `user id → role`. */
const membersOf = async (teamId: string) =>
  Object.fromEntries(
    (await t.em().find(TeamMember, { team: teamId }, { orderBy: { userId: 'asc' } })).map((m) => [m.userId, m.role]),
  );
const teamEvents = async (teamId: string) =>
  (await t.outboxEvents())
    .filter((e) => e.type.startsWith('team.') && (e.data as { team?: string }).team === teamId)
    .map((e) => {
      const { organization: _o, team: _t, ...rest } = e.data as Record<string, unknown>;
      return { type: e.type, ...rest };
    });

async function orgWithTeam() {
  const org = await seedOrganization(t, { ann: 'read', bob: 'edit', cat: 'read' });
  const team = await inTx((tx) =>
    teamCreator(tx, {
      organizationId: org.organizationId,
      title: 'Writers',
      members: [org.users.ann.id, org.users.ann.id],
    }),
  );
  return { ...org, team };
}
const bulk = (teamId: string, props: Omit<TeamMembersUpdaterProps, 'team'>) =>
  inTx(async (tx) => teamMembersUpdater(tx, { team: await tx.findOneOrFail(Team, { id: teamId }), ...props }));

describe('teamCreator', () => {
  it('creates the team with its members once each; refuses a non-member (400)', async () => {
    const { organizationId, users, team } = await orgWithTeam();
    expect(await membersOf(team.id)).toEqual({ [users.ann.id]: 'member' });
    expect(await teamEvents(team.id)).toEqual([
      { type: 'team.created', title: 'Writers' },
      { type: 'team.member-added', user: users.ann.id, role: 'member' },
    ]);
    const other = await seedOrganization(t, { stranger: 'read' });
    expect(
      await refusal(inTx((tx) => teamCreator(tx, { organizationId, title: 'X', members: [other.users.stranger.id] }))),
    ).toEqual({
      reason: 'invalid_input',
      message: `Invalid request: members: ${JSON.stringify(other.users.stranger.id)} is not a member of the organization`,
    });
    expect(await t.em().count(Team, { organizationId, title: 'X' })).toBe(0);
  });
});

describe('teamMembersUpdater', () => {
  it('adds by id or e-mail, sets roles, removes (removal wins), and records each change', async () => {
    const { users, team } = await orgWithTeam();
    await bulk(team.id, {
      add: [users.bob.email.toUpperCase(), users.cat.id],
      memberships: { [users.ann.id]: { role: 'owner' } },
      remove: [users.cat.email, 'nobody@nowhere.test'],
    });
    expect(await membersOf(team.id)).toEqual({ [users.ann.id]: 'owner', [users.bob.id]: 'member' });
    await bulk(team.id, { memberships: { [users.ann.id]: { role: 'owner' } }, add: [users.bob.id] });
    await bulk(team.id, { remove: [users.ann.id] });
    expect(await membersOf(team.id)).toEqual({ [users.bob.id]: 'member' });
    const events = (await teamEvents(team.id)).slice(2);
    // One user at a time in id order: the first update's two events come in the order of the users' ids.
    expect(events.slice(0, 2).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
      { type: 'team.member-added', user: users.bob.id, role: 'member' },
      { type: 'team.member-role-changed', user: users.ann.id, role: 'owner', previousRole: 'member' },
    ]);
    expect(events.slice(2)).toEqual([{ type: 'team.member-removed', user: users.ann.id }]);
  });

  it('refuses a reference to a non-member with a 400 naming the field, changing nothing', async () => {
    const { users, team } = await orgWithTeam();
    const other = await seedOrganization(t, { out: 'read' });
    expect(await refusal(bulk(team.id, { add: [users.bob.id, other.users.out.email] }))).toEqual({
      reason: 'invalid_input',
      message: `Invalid request: add: ${JSON.stringify(other.users.out.email)} is not a member of the organization`,
    });
    expect(await refusal(bulk(team.id, { memberships: { ghost: { role: 'owner' } } }))).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: memberships: "ghost" is not a member of the organization',
    });
    expect(await membersOf(team.id)).toEqual({ [users.ann.id]: 'member' });
  });
});

describe('teamMemberUpserter and teamMemberDeleter', () => {
  it('puts a member in (404 for a non-member), changes the role, and takes them out (404 when not in the team)', async () => {
    const { users, team } = await orgWithTeam();
    const upsert = (userId: string, role?: 'owner' | 'member') =>
      inTx(async (tx) => teamMemberUpserter(tx, { team: await tx.findOneOrFail(Team, { id: team.id }), userId, role }));
    const remove = (userId: string) =>
      inTx(async (tx) => teamMemberDeleter(tx, { team: await tx.findOneOrFail(Team, { id: team.id }), userId }));
    expect(await refusal(upsert('ghost'))).toEqual({ reason: 'not_found', message: 'Member not found' });
    await upsert(users.bob.id);
    await upsert(users.bob.id);
    await upsert(users.bob.id, 'owner');
    expect(await membersOf(team.id)).toEqual({ [users.ann.id]: 'member', [users.bob.id]: 'owner' });
    await remove(users.bob.id);
    expect(await refusal(remove(users.bob.id))).toEqual({ reason: 'not_found', message: 'Team member not found' });
    expect((await teamEvents(team.id)).slice(2).map((e) => e.type)).toEqual([
      'team.member-added',
      'team.member-role-changed',
      'team.member-removed',
    ]);
  });

  it('deleting a team takes its members with it', async () => {
    const { team } = await orgWithTeam();
    await inTx(async (tx) => teamDeleter(tx, { team: await tx.findOneOrFail(Team, { id: team.id }) }));
    expect(await t.em().count(TeamMember, { team: team.id })).toBe(0);
    expect((await teamEvents(team.id)).at(-1)).toEqual({ type: 'team.deleted' });
  });
});
