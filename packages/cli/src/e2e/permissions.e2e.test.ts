import { describe, expect, it } from 'vitest';
import { MemberRole } from '@gitbook/api';
import { eventually } from '@quire/kit/testing';
import { apiError, type Seat, useCast } from './harness.ts';

const { p, acme, other, rita, ted } = useCast({ rita: ['rita@acme.io', 'read'], ted: ['ted@acme.io', 'read'] });

const api = (who: Seat) => p.client(who.token);

describe('permissions through the official client', () => {
  it('a read member made edit on one space edits that one only; lists, aggregate, removal', async () => {
    const org = acme.organization.id;
    const one = (await api(acme).orgs.createSpace(org, { title: 'One' })).data;
    const two = (await api(acme).orgs.createSpace(org, { title: 'Two' })).data;
    const invited = await api(acme).spaces.inviteToSpace(one.id, { role: MemberRole.Edit, users: [rita.user.id] });
    expect(invited.status).toBe(204);

    expect((await api(rita).spaces.getSpaceById(one.id)).data.permissions).toMatchObject({
      view: true,
      edit: true,
      admin: false,
    });
    expect((await api(rita).spaces.getSpaceById(two.id)).data.permissions).toMatchObject({ view: true, edit: false });
    expect((await api(rita).spaces.createChangeRequest(one.id, {})).status).toBe(201);
    expect((await apiError(api(rita).spaces.createChangeRequest(two.id, {}))).code).toBe(403);
    // Rita cannot hand out roles: managing permissions needs admin on the space.
    expect(
      (await apiError(api(rita).spaces.inviteToSpace(one.id, { role: MemberRole.Admin, users: [ted.user.id] }))).code,
    ).toBe(403);

    const users = (await api(acme).spaces.listUserPermissionsInSpace(one.id)).data;
    expect(users.items).toEqual([{ permission: 'edit', user: expect.objectContaining({ id: rita.user.id }) }]);
    const aggregate = (await api(acme).spaces.listPermissionsAggregateInSpace(one.id, { role: MemberRole.Edit })).data;
    expect(aggregate.items.map((i) => i.user.id)).toEqual([rita.user.id]);

    // A restricted space: only those given a role see it.
    await api(acme).spaces.updateSpaceById(two.id, { defaultLevel: null } as never);
    expect((await apiError(api(ted).spaces.getSpaceById(two.id))).code).toBe(404);
    await api(acme).spaces.inviteToSpace(two.id, { role: MemberRole.Comment, users: [ted.user.id] });
    expect((await api(ted).spaces.getSpaceById(two.id)).data.permissions).toMatchObject({ comment: true, edit: false });
    const listed = (await api(ted).orgs.listSpacesInOrganizationById(org)).data.items.map((s) => s.id);
    expect(listed).toContain(two.id);

    expect((await api(acme).spaces.removeUserFromSpace(one.id, rita.user.id)).status).toBe(205);
    expect((await api(rita).spaces.getSpaceById(one.id)).data.permissions.edit).toBe(false);

    // Unknown users, another organization's callers.
    expect(
      await apiError(api(acme).spaces.inviteToSpace(one.id, { role: MemberRole.Read, users: ['nobody'] })),
    ).toEqual({ code: 404, message: expect.stringContaining('nobody') });
    expect((await apiError(api(acme).spaces.inviteToSpace(one.id, { role: MemberRole.Read } as never))).code).toBe(400);
    expect((await apiError(api(other).spaces.listUserPermissionsInSpace(one.id))).code).toBe(404);
    expect(
      (await apiError(api(other).spaces.inviteToSpace(one.id, { role: MemberRole.Admin, users: [other.user.id] })))
        .code,
    ).toBe(404);
    expect((await apiError(api(other).spaces.getSpaceById(two.id))).code).toBe(404);
  });

  it('a team given edit on a collection reaches its spaces; a deleted team takes its grants', async () => {
    const org = acme.organization.id;
    const collection = (await api(acme).orgs.createCollection(org, { title: 'Handbook' })).data;
    await api(acme).collections.updateCollectionById(collection.id, { defaultLevel: null } as never);
    const space = (await api(acme).orgs.createSpace(org, { title: 'Inside', parent: collection.id } as never)).data;
    expect((await apiError(api(ted).spaces.getSpaceById(space.id))).code).toBe(404);

    const team = (await api(acme).orgs.createOrganizationTeam(org, { title: 'Docs', members: [ted.user.id] } as never))
      .data;
    await api(acme).collections.inviteToCollection(collection.id, { role: MemberRole.Edit, teams: [team.id] });
    const teams = (await api(acme).collections.listTeamPermissionsInCollection(collection.id)).data;
    expect(teams.items).toEqual([
      { permission: 'edit', team: expect.objectContaining({ id: team.id, title: 'Docs' }) },
    ]);
    // Ted's token carries his teams: the grant reaches him at once.
    expect((await api(ted).spaces.getSpaceById(space.id)).data.permissions).toMatchObject({ edit: true, admin: false });
    expect((await api(ted).collections.getCollectionById(collection.id)).data.permissions).toMatchObject({
      view: true,
      admin: false,
    });

    await api(acme).orgs.removeTeamFromOrganizationById(org, team.id);
    await eventually(
      async () =>
        (
          await p.sql<{ n: string }>('select count(*) as n from content.collection_grant where principal_id = $1', [
            team.id,
          ])
        )[0]?.n === '0',
      10_000,
      'the team grants dropped',
    );
    expect((await apiError(api(ted).spaces.getSpaceById(space.id))).code).toBe(404);
  });

  it('site overrides: a read member given create changes the site, another closed out (null) no longer sees it', async () => {
    const org = acme.organization.id;
    const site = (await api(acme).orgs.createSite(org, { title: 'Portal' })).data;
    expect((await apiError(api(rita).orgs.updateSiteById(org, site.id, { title: 'Renamed' }))).code).toBe(403);
    await api(acme).orgs.inviteToSite(org, site.id, { role: MemberRole.Create, users: [rita.user.id] });
    await api(acme).orgs.inviteToSite(org, site.id, { role: null, users: [ted.user.id] });
    expect((await api(rita).orgs.updateSiteById(org, site.id, { title: 'Renamed' })).data.title).toBe('Renamed');
    expect((await apiError(api(ted).orgs.getSiteById(org, site.id))).code).toBe(404);
    expect((await api(ted).orgs.listSites(org)).data.items.map((s) => s.id)).not.toContain(site.id);
    const users = (await api(acme).orgs.listUserPermissionsInSite(org, site.id)).data;
    expect(users.items.map((i) => [i.user.id, i.permission]).sort()).toEqual(
      [
        [rita.user.id, 'create'],
        [ted.user.id, null],
      ].sort(),
    );
    expect((await apiError(api(other).orgs.listUserPermissionsInSite(org, site.id))).code).toBe(404);

    // The aggregate: every member who can access the site, with the role and what decided it.
    const aggregate = (await api(acme).orgs.listPermissionsAggregateInSite(org, site.id)).data;
    expect(aggregate.count).toBe(2);
    expect(aggregate.items.map((i) => [i.user.id, i.permission, i.origin, i.disabled])).toEqual(
      expect.arrayContaining([
        [acme.user.id, 'admin', { type: 'organization', organization: org }, false],
        [rita.user.id, 'create', { type: 'site', site: site.id, reason: 'member' }, false],
      ]),
    );
    // Ted's override out, his team's in: he reaches the site through the team.
    const team = (
      await api(acme).orgs.createOrganizationTeam(org, { title: 'Site readers', members: [ted.user.id] } as never)
    ).data;
    await api(acme).orgs.inviteToSite(org, site.id, { role: MemberRole.Edit, teams: [team.id] });
    await api(acme).orgs.removeUserFromSite(org, site.id, ted.user.id);
    const byTeam = (await api(rita).orgs.listPermissionsAggregateInSite(org, site.id, { team: team.id })).data;
    expect(byTeam.items.map((i) => [i.user.id, i.permission, i.origin])).toEqual([
      [ted.user.id, 'edit', { type: 'site', site: site.id, reason: 'team', team: team.id }],
    ]);
    const creators = (await api(acme).orgs.listPermissionsAggregateInSite(org, site.id, { role: MemberRole.Create }))
      .data;
    expect(creators.items.map((i) => i.user.id)).toEqual([rita.user.id]);
    // Keyset pages, one member each, give the whole list in its order.
    const all = (await api(acme).orgs.listPermissionsAggregateInSite(org, site.id, { sort: 'name', order: 'asc' }))
      .data;
    expect(all.count).toBe(3);
    const paged: string[] = [];
    let page: string | undefined;
    do {
      const res = (
        await api(acme).orgs.listPermissionsAggregateInSite(org, site.id, {
          sort: 'name',
          order: 'asc',
          limit: 1,
          ...(page ? { page } : {}),
        })
      ).data;
      paged.push(...res.items.map((i) => i.user.id));
      page = res.next?.page;
    } while (page);
    expect(paged).toEqual(all.items.map((i) => i.user.id));
    expect((await apiError(api(other).orgs.listPermissionsAggregateInSite(org, site.id))).code).toBe(404);
    expect(
      (await apiError(api(acme).orgs.listPermissionsAggregateInSite(org, site.id, { page: 'garbage' }))).code,
    ).toBe(400);
  });
});
