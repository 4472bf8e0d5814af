import { beforeAll, describe, expect, it } from 'vitest';
import { MemberRole, TeamMemberRole, type GitBookAPI } from '@gitbook/api';
import { ACTOR_EVICTING_EVENTS, type EventEnvelope } from '@quire/contracts';
import { verifyVisitorClaims } from '@quire/org-admin';
// A generic kit helper, reached by path until kit's testing index re-exports it.
import { selfSignedCertificatePem } from '@quire/kit/testing';
import { addUser, apiError, bootstrap, http as rawHttp, usePlatform } from './harness.ts';

/**
 * Members, invites, teams, SAML/SSO and translation settings through the gateway, with the official
 * `@gitbook/api` client wherever it has the operation (raw HTTP for status codes and error bodies).
 */
const p = usePlatform();
let orgId: string;
let certificate: string;
interface Seat {
  id: string;
  email: string;
  token: string;
  api: GitBookAPI;
}
let jane: Seat; // admin
let rita: Seat; // read
let eddie: Seat; // edit
let gus: Seat; // guest
let olga: Seat; // admin of another organization

beforeAll(async () => {
  const boot = await p.cli(['bootstrap', '--org', 'Acme Docs', '--email', 'jane@acme.io', '--name', 'Jane Doe']);
  orgId = boot.json.organization.id;
  const seat = (json: { user: { id: string; email: string }; token: string }): Seat => ({
    id: json.user.id,
    email: json.user.email,
    token: json.token,
    api: p.client(json.token),
  });
  jane = seat(boot.json);
  const add = async (email: string, role: string, name: string) => seat(await addUser(p, orgId, email, role, name));
  rita = await add('rita@acme.io', 'read', 'Rita Reader');
  eddie = await add('eddie@acme.io', 'edit', 'Eddie Editor');
  gus = await add('gus@acme.io', 'guest', 'Gus Guest');
  olga = seat(await bootstrap(p, 'Other Co', 'olga@other.io'));
  certificate = selfSignedCertificatePem('idp.acme.io');
});

const http = (method: string, path: string, token: string | null, body?: unknown) =>
  rawHttp(p, token)(method, path, body);
/** A 400 with exactly the error shape, naming the field. */
const expect400 = async (res: Promise<{ status: number; json: any }>, field: RegExp) => {
  const r = await res;
  expect(r.status).toBe(400);
  expect(r.json).toEqual({ error: { code: 400, message: expect.stringMatching(field) } });
};

describe('organization members', () => {
  it('lists members with real counts, pages with `next`, searches, filters and sorts', async () => {
    for (const title of ['Handbook', 'Runbooks'])
      expect((await jane.api.orgs.createSpace(orgId, { title })).status).toBe(201);
    const team = await jane.api.orgs.createOrganizationTeam(orgId, { title: 'Editors', members: [eddie.id] });
    expect(team.status).toBe(201);

    const seen: any[] = [];
    let page: string | undefined;
    do {
      const res = await rita.api.orgs.listMembersInOrganizationById(orgId, {
        limit: 2,
        sort: 'name',
        order: 'asc',
        ...(page ? { page } : {}),
      });
      expect(res.status).toBe(200);
      expect(res.data.count).toBe(4);
      seen.push(...res.data.items);
      page = res.data.next?.page;
    } while (page);
    expect(seen.map((m) => m.user.displayName)).toEqual(['Eddie Editor', 'Gus Guest', 'Jane Doe', 'Rita Reader']);
    const byName = Object.fromEntries(seen.map((m) => [m.user.displayName, m]));
    expect(byName['Jane Doe']).toMatchObject({
      object: 'member',
      id: jane.id,
      role: 'admin',
      spaces: 2,
      teams: 0,
      sites: 0,
      sso: false,
      disabled: false,
    });
    expect(byName['Eddie Editor']).toMatchObject({ role: 'edit', spaces: 2, teams: 1 });
    expect(byName['Gus Guest']).toMatchObject({ role: null, spaces: 0, teams: 0 });

    const search = await rita.api.orgs.listMembersInOrganizationById(orgId, { search: 'EDDIE@' });
    expect(search.data.items.map((m) => m.id)).toEqual([eddie.id]);
    const guests = await rita.api.orgs.listMembersInOrganizationById(orgId, { role: 'guest' });
    expect(guests.data.items.map((m) => m.id)).toEqual([gus.id]);
    const got = await rita.api.orgs.getMemberInOrganizationById(orgId, eddie.id);
    expect(got.data).toEqual(byName['Eddie Editor']);

    await expect400(http('GET', `/v1/orgs/${orgId}/members?limit=1001`, rita.token), /limit: Too big/);
    await expect400(http('GET', `/v1/orgs/${orgId}/members?role=owner`, rita.token), /^Invalid request: role/);
    await expect400(http('GET', `/v1/orgs/${orgId}/members?sort=email`, rita.token), /^Invalid request: sort/);
  });

  it('pings: the last-seen time moves and the visitor-claims JWT verifies (a tampered one does not)', async () => {
    const res = await eddie.api.orgs.updateOrganizationMemberLastSeenAt(orgId);
    expect(res.status).toBe(200);
    const token = (res.data as unknown as { serviceVisitorClaims: string }).serviceVisitorClaims;
    const verify = (jwt: string) =>
      verifyVisitorClaims(jwt, { internalSecret: p.platform.internalSecret, issuer: 'http://quire.test' });
    expect(await verify(token)).toMatchObject({
      sub: eddie.id,
      organization: orgId,
      role: 'edit',
      iss: 'http://quire.test',
    });
    const [h, body, sig] = token.split('.');
    const raised = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), role: 'admin' }),
    ).toString('base64url');
    await expect(verify(`${h}.${raised}.${sig}`)).rejects.toThrow();
    const active = await rita.api.orgs.listMembersInOrganizationById(orgId, { sort: 'lastSeenAt' });
    expect(active.data.items.map((m) => m.id)).toEqual([eddie.id]);
    expect(active.data.items[0]!.lastSeenAt).toBeTruthy();
  });

  it('changes roles, marks SSO members, invites and removes members (admins only)', async () => {
    expect(
      await apiError(rita.api.orgs.updateMemberInOrganizationById(orgId, eddie.id, { role: MemberRole.Admin })),
    ).toMatchObject({ code: 403 });
    const guest = await jane.api.orgs.updateMemberInOrganizationById(orgId, eddie.id, { role: null });
    expect(guest.data.role).toBeNull();
    expect(
      (await jane.api.orgs.updateMemberInOrganizationById(orgId, eddie.id, { role: MemberRole.Edit })).data.role,
    ).toBe('edit');
    expect(
      await apiError(jane.api.orgs.updateMemberInOrganizationById(orgId, jane.id, { role: MemberRole.Read })),
    ).toMatchObject({ code: 409 });

    const sso = await jane.api.orgs.setUserAsSsoMemberForOrganization(orgId, eddie.id);
    expect(sso.data).toMatchObject({ id: eddie.id, sso: true });

    const invited = await jane.api.orgs.inviteUsersToOrganization(orgId, {
      emails: ['Nina@acme.io', { email: 'omar@acme.io', role: MemberRole.Create }, rita.email],
      role: MemberRole.Comment,
    });
    expect(invited.status).toBe(200);
    expect(invited.data.invited).toBe(2);
    const roles = (
      await jane.api.orgs.listMembersInOrganizationById(orgId, {
        search: 'acme.io',
        sort: 'name',
        order: 'asc',
        limit: 100,
      })
    ).data.items.map((m) => [m.user.email, m.role]);
    expect(roles).toEqual(
      expect.arrayContaining([
        ['nina@acme.io', 'comment'],
        ['omar@acme.io', 'create'],
        ['rita@acme.io', 'read'],
      ]),
    );
    expect(await apiError(rita.api.orgs.inviteUsersToOrganization(orgId, { emails: ['x@acme.io'] }))).toMatchObject({
      code: 403,
    });
    await expect400(
      http('POST', `/v1/orgs/${orgId}/invites`, jane.token, { emails: ['not an email'] }),
      /^Invalid request: emails\.0/,
    );

    const nina = (await jane.api.orgs.listMembersInOrganizationById(orgId, { search: 'nina' })).data.items[0]!;
    const removed = await jane.api.orgs.removeMemberFromOrganizationById(orgId, nina.id);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    expect(await apiError(jane.api.orgs.getMemberInOrganizationById(orgId, nina.id))).toMatchObject({
      code: 404,
      message: 'Member not found',
    });
  });

  it('keeps the lists from guests (403) and the whole organization from other organizations (404)', async () => {
    expect(await apiError(gus.api.orgs.listMembersInOrganizationById(orgId))).toMatchObject({ code: 403 });
    expect(await apiError(gus.api.orgs.listTeamsInOrganizationById(orgId))).toMatchObject({ code: 403 });
    expect((await gus.api.orgs.getMemberInOrganizationById(orgId, gus.id)).data.role).toBeNull();
    const team = (await jane.api.orgs.createOrganizationTeam(orgId, { title: 'Secret' })).data;
    const saml = (await jane.api.orgs.createOrganizationSamlProvider(orgId, { label: 'Hidden' })).data;
    const tr = (await jane.api.orgs.createTranslation(orgId, { title: 'Hidden' } as never)).data as unknown as {
      id: string;
    };
    const o = olga.api.orgs;
    const calls: (() => Promise<unknown>)[] = [
      () => o.listMembersInOrganizationById(orgId),
      () => o.getMemberInOrganizationById(orgId, rita.id),
      () => o.updateMemberInOrganizationById(orgId, rita.id, { role: MemberRole.Admin }),
      () => o.removeMemberFromOrganizationById(orgId, rita.id),
      () => o.updateOrganizationMemberLastSeenAt(orgId),
      () => o.setUserAsSsoMemberForOrganization(orgId, rita.id),
      () => o.listTeamsForOrganizationMember(orgId, rita.id),
      () => o.inviteUsersToOrganization(orgId, { emails: ['x@other.io'] }),
      () => o.listTeamsInOrganizationById(orgId),
      () => o.createOrganizationTeam(orgId, { title: 'Mine' }),
      () => o.getTeamInOrganizationById(orgId, team.id),
      () => o.updateTeamInOrganizationById(orgId, team.id, { title: 'Mine' }),
      () => o.removeTeamFromOrganizationById(orgId, team.id),
      () => o.listTeamMembersInOrganizationById(orgId, team.id),
      () => o.updateMembersInOrganizationTeam(orgId, team.id, { add: [olga.id] }),
      () => o.addMemberToOrganizationTeamById(orgId, team.id, olga.id, {}),
      () => o.deleteMemberFromOrganizationTeamById(orgId, team.id, rita.id),
      () => o.listSamlProvidersInOrganizationById(orgId),
      () => o.createOrganizationSamlProvider(orgId, { label: 'Mine' }),
      () => o.getOrganizationSamlProviderById(orgId, saml.id),
      () => o.updateOrganizationSamlProvider(orgId, saml.id, { label: 'Mine' }),
      () => o.deleteOrganizationSamlProvider(orgId, saml.id),
      () => o.listTranslations(orgId),
      () => o.createTranslation(orgId, { title: 'Mine' } as never),
      () => o.getTranslation(orgId, tr.id),
      () => o.updateTranslation(orgId, tr.id, { title: 'Mine' } as never),
      () => o.deleteTranslation(orgId, tr.id),
    ];
    for (const [i, run] of calls.entries()) expect(await apiError(run()), `call #${i}`).toMatchObject({ code: 404 });
  });
});

describe('teams and team members', () => {
  it('creates, lists, reads, renames and deletes teams with real counts', async () => {
    const created = await jane.api.orgs.createOrganizationTeam(orgId, {
      title: 'Writers Guild',
      members: [rita.id, eddie.id],
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: 'team',
      title: 'Writers Guild',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    const id = created.data.id;
    const listed = await rita.api.orgs.listTeamsInOrganizationById(orgId, { title: 'guild' });
    expect(listed.data.items.map((t) => [t.id, t.permissions])).toEqual([[id, { admin: false, view: true }]]);
    expect((await rita.api.orgs.getTeamInOrganizationById(orgId, id)).data.members).toBe(2);
    expect((await jane.api.orgs.updateTeamInOrganizationById(orgId, id, { title: 'Guild' })).data.title).toBe('Guild');
    const ritaTeams = await rita.api.orgs.listTeamsForOrganizationMember(orgId, rita.id, { title: 'GUILD' });
    expect(ritaTeams.data.items).toMatchObject([{ team: { id, title: 'Guild' }, member: { role: 'member' } }]);
    expect((await jane.api.orgs.getMemberInOrganizationById(orgId, rita.id)).data.teams).toBe(1);

    await expect400(
      http('PUT', `/v1/orgs/${orgId}/teams`, jane.token, { title: 'x'.repeat(65) }),
      /^Invalid request: title: Too big/,
    );
    await expect400(
      http('PATCH', `/v1/orgs/${orgId}/teams/${id}`, jane.token, { title: '' }),
      /^Invalid request: title: Too small/,
    );
    await expect400(
      http('PUT', `/v1/orgs/${orgId}/teams`, jane.token, { title: 'T', members: [olga.id] }),
      /^Invalid request: members: /,
    );

    const deleted = await jane.api.orgs.removeTeamFromOrganizationById(orgId, id);
    expect(deleted.status).toBe(204);
    expect(await apiError(rita.api.orgs.getTeamInOrganizationById(orgId, id))).toMatchObject({ code: 404 });
    expect((await jane.api.orgs.getMemberInOrganizationById(orgId, rita.id)).data.teams).toBe(0);
  });

  it('manages team members: bulk add/remove (remove wins), single add/update/remove, owners manage, read members get 403', async () => {
    // The gateway drops cached actors on these events (an actor carries its teams): they reach the bus.
    const evicting: EventEnvelope[] = [];
    const listener = await p.platform.bus.listen(
      ACTOR_EVICTING_EVENTS.map((e) => e.subject),
      async (envelope) => void evicting.push(envelope),
    );
    const team = (await jane.api.orgs.createOrganizationTeam(orgId, { title: 'Crew' })).data;
    const bulk = await jane.api.orgs.updateMembersInOrganizationTeam(orgId, team.id, {
      add: [rita.id, eddie.email, gus.id],
      remove: [gus.email],
      memberships: { [eddie.id]: { role: TeamMemberRole.Owner } },
    });
    expect(bulk.status).toBe(204);
    const members = async () =>
      (await jane.api.orgs.listTeamMembersInOrganizationById(orgId, team.id)).data.items
        .map((i) => [i.organization.user.displayName, i.team.role, i.permissions.view])
        .sort();
    expect(await members()).toEqual([
      ['Eddie Editor', 'owner', true],
      ['Rita Reader', 'member', true],
    ]);
    await expect
      .poll(
        () =>
          evicting
            .filter((e) => (e.data as { team?: string }).team === team.id)
            .map((e) => [e.type, (e.data as { user: string }).user])
            .sort(),
        { timeout: 5_000 },
      )
      .toEqual(
        [
          ['team.member-added', eddie.id],
          ['team.member-added', rita.id],
        ].sort(),
      );
    await listener.stop();
    const listed = await rita.api.orgs.listTeamMembersInOrganizationById(orgId, team.id);
    // Eddie is also in `Editors` (first test): two teams.
    expect(listed.data.items.find((i) => i.organization.id === eddie.id)!.organization).toMatchObject({
      object: 'member',
      role: 'edit',
      teams: 2,
      spaces: 2,
    });

    // A `read` member who does not own the team may not manage it.
    expect(await apiError(rita.api.orgs.addMemberToOrganizationTeamById(orgId, team.id, gus.id, {}))).toMatchObject({
      code: 403,
    });
    expect(
      await apiError(rita.api.orgs.updateMembersInOrganizationTeam(orgId, team.id, { remove: [eddie.id] })),
    ).toMatchObject({ code: 403 });
    expect(await apiError(rita.api.orgs.deleteMemberFromOrganizationTeamById(orgId, team.id, eddie.id))).toMatchObject({
      code: 403,
    });
    // Eddie owns it: he adds, promotes and removes members, but does not rename it.
    expect(
      (await eddie.api.orgs.addMemberToOrganizationTeamById(orgId, team.id, gus.id, { role: TeamMemberRole.Member }))
        .status,
    ).toBe(204);
    expect(
      (await eddie.api.orgs.addMemberToOrganizationTeamById(orgId, team.id, rita.id, { role: TeamMemberRole.Owner }))
        .status,
    ).toBe(204);
    expect((await eddie.api.orgs.deleteMemberFromOrganizationTeamById(orgId, team.id, gus.id)).status).toBe(204);
    expect(
      await apiError(eddie.api.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Mine' })),
    ).toMatchObject({ code: 403 });
    expect(await members()).toEqual([
      ['Eddie Editor', 'owner', true],
      ['Rita Reader', 'owner', true],
    ]);
    expect(
      (await rita.api.orgs.listTeamsInOrganizationById(orgId, { owner: rita.id })).data.items.map((t) => t.id),
    ).toEqual([team.id]);
    expect((await rita.api.orgs.getOrganizationById(orgId)).data.permissions.ownTeam).toBe(true);
    expect(await apiError(jane.api.orgs.addMemberToOrganizationTeamById(orgId, team.id, olga.id, {}))).toMatchObject({
      code: 404,
      message: 'Member not found',
    });
    await expect400(
      http('PUT', `/v1/orgs/${orgId}/teams/${team.id}/members`, jane.token, { add: [olga.email] }),
      /^Invalid request: add: /,
    );
    await expect400(
      http('PUT', `/v1/orgs/${orgId}/teams/${team.id}/members/${rita.id}`, jane.token, { role: 'boss' }),
      /^Invalid request: role/,
    );
  });
});

describe('SAML and SSO', () => {
  it('manages providers with their limits, and lists active ones for login to members', async () => {
    const team = (await jane.api.orgs.createOrganizationTeam(orgId, { title: 'SSO users' })).data;
    const before = (await jane.api.orgs.listSamlProvidersInOrganizationById(orgId)).data.count ?? 0;
    const created = await jane.api.orgs.createOrganizationSamlProvider(orgId, {
      label: 'Okta',
      ssoURL: 'https://idp.acme.io/sso',
      entityID: 'urn:acme:idp',
      certificate,
      defaultTeam: team.id,
      defaultRole: MemberRole.Read,
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      status: 'active',
      defaultRole: 'read',
      defaultTeam: { id: team.id },
      service: { startURL: `http://quire.test/saml/${created.data.id}/start` },
    });
    const pending = (await jane.api.orgs.createOrganizationSamlProvider(orgId, { label: 'Later' })).data;
    expect(pending.status).toBe('pending');
    expect((await jane.api.orgs.listSamlProvidersInOrganizationById(orgId)).data.count).toBe(before + 2);
    expect((await jane.api.orgs.getOrganizationSamlProviderById(orgId, created.data.id)).data.certificate).toBe(
      certificate.trim(),
    );
    expect(
      (await jane.api.orgs.updateOrganizationSamlProvider(orgId, created.data.id, { label: 'Okta SSO' })).data.label,
    ).toBe('Okta SSO');

    expect(await http('GET', `/v1/orgs/${orgId}/sso`, null)).toMatchObject({
      status: 401,
      json: { error: { code: 401 } },
    });
    const sso = await http('GET', `/v1/orgs/${orgId}/sso`, jane.token);
    expect(sso).toMatchObject({
      status: 200,
      json: { items: [{ id: created.data.id, label: 'Okta SSO', startURL: created.data.service.startURL }] },
    });
    expect((await rita.api.orgs.listSsoProviderLoginsInOrganization(orgId)).data.items).toHaveLength(1);

    await expect400(
      http('POST', `/v1/orgs/${orgId}/saml`, jane.token, { label: 'x'.repeat(31) }),
      /^Invalid request: label: Too big/,
    );
    await expect400(
      http('POST', `/v1/orgs/${orgId}/saml`, jane.token, { label: 'ok', certificate: 'MIIB-not-a-cert' }),
      /^Invalid request: certificate: not a PEM-encoded X\.509 certificate/,
    );
    await expect400(
      http('POST', `/v1/orgs/${orgId}/saml`, jane.token, { label: 'ok', certificate: 'x'.repeat(10_001) }),
      /^Invalid request: certificate: Too big/,
    );
    await expect400(
      http('POST', `/v1/orgs/${orgId}/saml`, jane.token, { label: 'ok', entityID: 'e'.repeat(1025) }),
      /^Invalid request: entityID: Too big/,
    );
    await expect400(
      http('PATCH', `/v1/orgs/${orgId}/saml/${pending.id}`, jane.token, { ssoURL: 'ftp://idp.acme.io' }),
      /^Invalid request: ssoURL/,
    );
    await expect400(
      http('PATCH', `/v1/orgs/${orgId}/saml/${pending.id}`, jane.token, { defaultTeam: 'nope' }),
      /^Invalid request: defaultTeam: no such team/,
    );
    expect(await apiError(eddie.api.orgs.listSamlProvidersInOrganizationById(orgId))).toMatchObject({ code: 403 });

    const deleted = await jane.api.orgs.deleteOrganizationSamlProvider(orgId, created.data.id);
    expect(deleted.status).toBe(204);
    expect((await http('GET', `/v1/orgs/${orgId}/sso`, jane.token)).json).toEqual({ items: [] });
  });
});

describe('translation settings', () => {
  it('creates, reads, replaces, lists and deletes settings (205), with limits and admin-only edits', async () => {
    const created = await jane.api.orgs.createTranslation(orgId, { title: 'French docs', languages: ['fr'] } as never);
    expect(created.status).toBe(201);
    const settings = created.data as unknown as { id: string; title: string; languages: string[]; permissions: object };
    expect(settings).toMatchObject({
      object: 'translation-settings',
      title: 'French docs',
      languages: ['fr'],
      permissions: { view: true, edit: true },
    });
    expect((await rita.api.orgs.getTranslation(orgId, settings.id)).data).toMatchObject({
      id: settings.id,
      permissions: { view: true, edit: false },
    });
    const replaced = await jane.api.orgs.updateTranslation(orgId, settings.id, {
      title: 'French and German',
      languages: ['fr', 'de'],
    } as never);
    expect(replaced.data).toMatchObject({ title: 'French and German', languages: ['fr', 'de'] });
    expect((await rita.api.orgs.listTranslations(orgId)).data.items.map((t) => t.id)).toContain(settings.id);
    expect(
      await apiError(rita.api.orgs.updateTranslation(orgId, settings.id, { title: 'Nope' } as never)),
    ).toMatchObject({ code: 403 });

    await expect400(
      http('POST', `/v1/orgs/${orgId}/translations`, jane.token, { title: 'x'.repeat(101) }),
      /^Invalid request: title: Too big/,
    );
    await expect400(http('POST', `/v1/orgs/${orgId}/translations`, jane.token, {}), /^Invalid request: title/);
    await expect400(
      http('PUT', `/v1/orgs/${orgId}/translations/${settings.id}`, jane.token, { title: 'ok', languages: ['xx'] }),
      /^Invalid request: languages\.0/,
    );

    const deleted = await jane.api.orgs.deleteTranslation(orgId, settings.id);
    expect(deleted.status).toBe(205);
    expect(await apiError(jane.api.orgs.getTranslation(orgId, settings.id))).toMatchObject({ code: 404 });
  });
});
