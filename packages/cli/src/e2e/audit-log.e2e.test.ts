import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, useCast } from './harness.ts';

interface Entry {
  id: string;
  action: string;
  actor: { type: string; id: string; label?: string };
  target: { type: string; id: string; label?: string };
  occurredAt: string;
}

/**
 * The audit log end to end: mutations of every service through the official client, one entry each (none for
 * a read, none for a refused call), read back by the organization's admin only, filtered and paged.
 */
describe('the audit log through the gateway', () => {
  const { p, acme, reader, other } = useCast({ reader: ['rita@acme.io', 'read'] });
  let org: string;
  /** The entries of Acme's log, newest first (every page). */
  const entries = async (query: Record<string, string> = {}): Promise<{ count: number; items: Entry[] }> => {
    const items: Entry[] = [];
    let page: string | undefined;
    let count = 0;
    do {
      const res = await p
        .client(acme.token)
        .orgs.listOrganizationAuditEvents(org, { limit: 100, ...query, ...(page ? { page } : {}) } as never);
      const body = res.data as unknown as { count: number; items: Entry[]; next?: { page: string } };
      items.push(...body.items);
      count = body.count;
      page = body.next?.page;
    } while (page);
    return { count, items };
  };
  /** Waits until Acme's log holds `n` entries (the log follows the changes by the outbox and the bus). */
  const settle = async (n: number) => {
    await expect.poll(async () => (await entries()).count, { timeout: 10_000, interval: 50 }).toBe(n);
    return (await entries()).items;
  };

  beforeAll(async () => {
    org = acme.organization.id;
  });

  it('holds exactly one entry per mutation, none for reads or refused calls', async () => {
    // The setup's two instance-admin mutations on Acme: its bootstrap and Rita's addition.
    const setup = await settle(2);
    expect(setup.map((e) => [e.action, e.actor])).toEqual([
      ['admin.addUser', { type: 'system', id: 'instance-admin' }],
      ['admin.bootstrap', { type: 'system', id: 'instance-admin' }],
    ]);

    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(org, { title: 'Handbook' })).data; // content
    await api.spaces.getSpaceById(space.id); // read
    await api.spaces.updateSpaceById(space.id, { title: 'Staff handbook' }); // content
    await api.orgs.listSpacesInOrganizationById(org); // read
    const collection = (await api.orgs.createCollection(org, { title: 'People' })).data; // content
    const team = (await api.orgs.createOrganizationTeam(org, { title: 'Writers' })).data; // org-admin
    await api.orgs.listTeamsInOrganizationById(org); // read
    const site = (await api.orgs.createSite(org, { title: 'Docs' } as never)).data; // sites
    await api.orgs.getSiteById(org, site.id); // read
    await api.orgs.listOrganizationAuditEvents(org); // reading the log is a read too
    // A refused mutation changes nothing and is not recorded.
    expect((await apiError(p.client(reader.token).orgs.createSpace(org, { title: 'Nope' }))).code).toBe(403);
    // A user's own token is outside every organization: not in Acme's log.
    await fetch(`${p.url}/v1/user/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json' },
      body: '{"label":"ci"}',
    });
    // With a request id and user agent of its own, to find them in the entry.
    const res = await fetch(`${p.url}/v1/spaces/${space.id}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${acme.token}`,
        'content-type': 'application/json',
        'x-request-id': 'audit-e2e-1',
        'user-agent': 'audit-e2e/1.0',
      },
      body: JSON.stringify({ emoji: '1f4d8' }),
    });
    expect(res.status).toBe(200);

    const items = await settle(2 + 6);
    expect(
      items
        .slice(0, 6)
        .map((e) => e.action)
        .sort(),
    ).toEqual([
      'collections.create',
      'organization.team.created',
      'sites.create',
      'spaces.create',
      'spaces.update',
      'spaces.update',
    ]);
    expect(items.find((e) => e.action === 'collections.create')?.target).toEqual({
      type: 'collection',
      id: collection.id,
      label: 'People',
    });
    expect(items.find((e) => e.action === 'organization.team.created')?.target).toMatchObject({
      type: 'team',
      id: team.id,
    });
    expect(items.find((e) => e.action === 'sites.create')?.target).toMatchObject({ type: 'site', id: site.id });
    for (const e of items.slice(0, 6)) expect(e.actor).toEqual({ type: 'user', id: acme.user.id, label: 'Ann' });

    // The last one, in detail: request id, client address and user agent, token.
    const last = (await api.orgs.getOrganizationAuditEvent(org, items[0]!.id)).data as unknown as {
      action: string;
      executionId: string;
      payload: Record<string, unknown>;
    };
    expect(last).toMatchObject({
      action: 'spaces.update',
      executionId: 'audit-e2e-1',
      payload: {
        operationId: 'updateSpaceById',
        userAgent: 'audit-e2e/1.0',
        fields: ['emoji'],
        tokenId: expect.any(String),
      },
    });
    expect(String(last.payload.ip)).toMatch(/127\.0\.0\.1$/);
    const tokens = await p.get(acme.token, '/user/tokens');
    expect(tokens.body.items.map((t: { id: string }) => t.id)).toContain(last.payload.tokenId);
  });

  it('filters by action, actor, target and time, and pages by keyset', async () => {
    const all = (await entries()).items;
    const space = all.find((e) => e.action === 'spaces.create')!.target.id;
    expect((await entries({ action: 'spaces.update' })).items.map((e) => e.target.id)).toEqual([space, space]);
    expect((await entries({ actor: acme.user.id })).count).toBe(6);
    expect((await entries({ actor: 'instance-admin' })).count).toBe(2);
    expect((await entries({ target: space })).items.map((e) => e.action)).toEqual([
      'spaces.update',
      'spaces.update',
      'spaces.create',
    ]);
    const created = all.find((e) => e.action === 'spaces.create')!.occurredAt;
    expect((await entries({ from: created })).items.at(-1)!.action).toBe('spaces.create');
    expect((await entries({ to: created })).items[0]!.action).toBe('spaces.create');
    // The same instant written with an offset.
    const shifted = new Date(Date.parse(created) + 5.5 * 3_600_000).toISOString().replace('Z', '+05:30');
    expect((await entries({ to: shifted })).items[0]!.action).toBe('spaces.create');

    const paged: string[] = [];
    let page: string | undefined;
    do {
      const res = (
        await p
          .client(acme.token)
          .orgs.listOrganizationAuditEvents(org, { limit: 3, ...(page ? { page } : {}) } as never)
      ).data as unknown as { count: number; items: Entry[]; next?: { page: string } };
      expect(res.items.length).toBeLessThanOrEqual(3);
      expect(res.count).toBe(all.length);
      paged.push(...res.items.map((e) => e.id));
      page = res.next?.page;
    } while (page);
    expect(paged).toEqual(all.map((e) => e.id));

    const bad = await p.get(acme.token, `/orgs/${org}/audit-events?limit=101`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/limit/);
    expect((await p.get(acme.token, `/orgs/${org}/audit-events?page=garbage`)).status).toBe(400);
    for (const from of [
      'yesterday',
      '0000-01-01T00:00:00Z',
      '2020-01-01T00:00:00+99:99',
      '2020-01-01T00:00:00+23:59',
    ]) {
      expect((await p.get(acme.token, `/orgs/${org}/audit-events?from=${encodeURIComponent(from)}`)).status, from).toBe(
        400,
      );
    }
  });

  it('is read by organization admins only, and nobody edits it', async () => {
    const [first] = (await entries()).items;
    const actions = (await p.client(acme.token).orgs.listOrganizationAuditEventActions(org)).data as unknown as {
      items: { id: string; label: string }[];
    };
    expect(actions.items.map((a) => a.id)).toEqual(
      expect.arrayContaining(['spaces.create', 'organization.team.created', 'sites.create']),
    );
    expect(actions.items.map((a) => a.id)).not.toContain('spaces.get');

    const rita = p.client(reader.token);
    expect(await apiError(rita.orgs.listOrganizationAuditEvents(org, {} as never))).toMatchObject({
      code: 403,
      message: 'Only organization admins can read the audit log',
    });
    expect((await apiError(rita.orgs.getOrganizationAuditEvent(org, first!.id))).code).toBe(403);
    expect((await apiError(rita.orgs.listOrganizationAuditEventActions(org))).code).toBe(403);
    const olga = p.client(other.token);
    expect((await apiError(olga.orgs.listOrganizationAuditEvents(org, {} as never))).code).toBe(404);
    expect((await apiError(olga.orgs.getOrganizationAuditEvent(other.organization.id, first!.id))).code).toBe(404);

    for (const method of ['DELETE', 'PATCH', 'PUT']) {
      const body = method === 'DELETE' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' };
      const res = await fetch(`${p.url}/v1/orgs/${org}/audit-events/${first!.id}`, {
        method,
        ...body,
        headers: { authorization: `Bearer ${acme.token}`, ...body.headers },
      });
      expect(res.status, method).toBe(404);
    }
    expect((await entries()).items[0]).toEqual(first);
  });

  it("names GitBook's actions where GitBook has the same change: adding a team member, then changing their role", async () => {
    const api = p.client(acme.token);
    const before = (await entries()).count;
    const team = (await api.orgs.listTeamsInOrganizationById(org)).data.items[0]!;
    await api.orgs.addMemberToOrganizationTeamById(org, team.id, reader.user.id, {});
    await api.orgs.addMemberToOrganizationTeamById(org, team.id, reader.user.id, { role: 'owner' as never });
    const items = await settle(before + 2);
    expect(items.slice(0, 2).map((e) => [e.action, e.target])).toEqual([
      ['organization.team.member-updated', { type: 'user', id: reader.user.id }],
      ['organization.team.member-added', { type: 'user', id: reader.user.id }],
    ]);
    const actions = (await api.orgs.listOrganizationAuditEventActions(org)).data.items;
    expect(actions).toEqual(
      expect.arrayContaining([
        { object: 'audit-event-action', id: 'organization.team.member-added', label: 'Added organization team member' },
        {
          object: 'audit-event-action',
          id: 'organization.team.member-updated',
          label: 'Updated organization team member',
        },
      ]),
    );
    expect(actions.map((a) => a.id)).not.toContain('teams.upsertMember');
  });
});
