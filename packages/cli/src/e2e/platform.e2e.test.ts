import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsAvailable } from '@quire/kit/testing';
import { apiError, startPlatform, type Platform } from './harness.ts';

const hasNats = await natsAvailable();

describe.each([
  { bus: 'in-process bus', nats: false, transport: 'in-process' as const },
  { bus: 'NATS JetStream', nats: true, transport: 'in-process' as const },
  { bus: 'in-process bus', nats: false, transport: 'http' as const },
])('platform through the gateway ($bus, $transport transport)', ({ nats, transport }) => {
  let p: Platform;
  let boot: { organization: { id: string; title: string }; user: { id: string; email: string }; token: string };

  beforeAll(async () => {
    if (nats && !hasNats) return;
    // A long actor cache: only events can explain a membership change being seen at once.
    p = await startPlatform({ nats, transport, env: { QUIRE_ACTOR_CACHE_MS: '600000' } });
    const res = await p.cli(['bootstrap', '--org', 'Acme Docs', '--email', 'jane@acme.io', '--name', 'Jane Doe']);
    expect(res.code).toBe(0);
    boot = res.json;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it.skipIf(nats && !hasNats)('is live, and ready once every service is ready', async () => {
    expect(await (await fetch(`${p.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const res = await fetch(`${p.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      services: { content: 'ready', sites: 'ready', 'org-admin': 'ready', integrations: 'ready' },
    });
    const info = await fetch(`${p.url}/v1/`, { headers: { authorization: `Bearer ${boot.token}` } });
    expect(await info.json()).toEqual({ version: '0.1.0', build: 'source' });
    const anonymous = await fetch(`${p.url}/v1/`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe(401);
  });

  it.skipIf(nats && !hasNats)('bootstraps through the CLI and serves the official client', async () => {
    expect(boot.organization.title).toBe('Acme Docs');
    expect(boot.user).toMatchObject({ object: 'user', email: 'jane@acme.io', displayName: 'Jane Doe' });
    const api = p.client(boot.token);
    const me = await api.user.getAuthenticatedUser();
    expect(me.status).toBe(200);
    expect(me.data.id).toBe(boot.user.id);
    const orgs = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.data.count).toBe(1);
    expect(orgs.data.items[0]).toMatchObject({ id: boot.organization.id, permissions: { admin: true } });
    const created = await api.orgs.createSpace(boot.organization.id, { title: 'Handbook', emoji: '📘' });
    expect(created.status).toBe(201);
    const got = await api.spaces.getSpaceById(created.data.id);
    expect(got.data).toMatchObject({
      id: created.data.id,
      title: 'Handbook',
      emoji: '📘',
      organization: boot.organization.id,
      revision: created.data.revision,
    });
    expect(got.data.permissions.admin).toBe(true);
    const listed = await api.orgs.listSpacesInOrganizationById(boot.organization.id);
    expect(listed.data.items.map((s) => s.id)).toContain(created.data.id);
    // space.created reached the sites service's own schema through the outbox and the bus.
    const sites = p.platform.services.find((s) => s.name === 'sites')!;
    await expect
      .poll(
        async () =>
          (
            await sites.deps.orm.em
              .getConnection()
              .execute<{ id: string }[]>('select id from sites.content_space where id = ?', [created.data.id])
          ).length,
        { timeout: 5_000 },
      )
      .toBe(1);
  });

  it.skipIf(nats && !hasNats)('sees its own new organization at once and can create spaces there', async () => {
    const api = p.client(boot.token);
    const org = await api.orgs.createOrganization({ title: 'Second Org' } as never);
    expect(org.status).toBe(201);
    const space = await api.orgs.createSpace(org.data.id, { title: 'In second' });
    expect(space.status).toBe(201);
  });

  it.skipIf(nats && !hasNats)('applies roles: a read member may look, not create; another org gets 404', async () => {
    const api = p.client(boot.token);
    const space = (await api.orgs.createSpace(boot.organization.id, { title: 'Guarded' })).data;
    const reader = await p.cli([
      'users',
      'add',
      '--org',
      boot.organization.id,
      '--email',
      'rita@acme.io',
      '--role',
      'read',
    ]);
    expect(reader.code).toBe(0);
    const readerApi = p.client(reader.json.token);
    expect((await readerApi.spaces.getSpaceById(space.id)).data.permissions).toMatchObject({
      view: true,
      edit: false,
      admin: false,
    });
    expect(await apiError(readerApi.orgs.createSpace(boot.organization.id, { title: 'nope' }))).toMatchObject({
      code: 403,
    });

    const other = await p.cli(['bootstrap', '--org', 'Other Co', '--email', 'olga@other.io']);
    const otherApi = p.client(other.json.token);
    expect(await apiError(otherApi.spaces.getSpaceById(space.id))).toMatchObject({
      code: 404,
      message: 'Space not found',
    });
    expect(await apiError(otherApi.orgs.getOrganizationById(boot.organization.id))).toMatchObject({ code: 404 });
  });

  it.skipIf(nats && !hasNats)('evicts cached actors on membership and token events', async () => {
    const other = await p.cli(['bootstrap', '--org', 'Evict Co', '--email', `eve-${nats}-${transport}@evict.io`]);
    const eveApi = p.client(other.json.token);
    expect(await apiError(eveApi.orgs.createSpace(boot.organization.id, { title: 'not yet' }))).toMatchObject({
      code: 404,
    });
    // Another admin adds Eve as editor in Acme: member.added reaches the gateway and drops her cached actor.
    const added = await p.cli([
      'users',
      'add',
      '--org',
      boot.organization.id,
      '--email',
      `eve-${nats}-${transport}@evict.io`,
      '--role',
      'create',
    ]);
    expect(added.code).toBe(0);
    await expect
      .poll(
        async () => (await eveApi.orgs.createSpace(boot.organization.id, { title: 'now' }).catch((e) => e)).status,
        { timeout: 5_000 },
      )
      .toBe(201);

    // Eve revokes her first token with her second one: the first (cached) stops working at once.
    const list = await fetch(`${p.url}/v1/user/tokens`, { headers: { authorization: `Bearer ${added.json.token}` } });
    const tokenId = ((await list.json()) as { items: { id: string; label: string }[] }).items.find(
      (t) => t.label === 'bootstrap',
    )!.id;
    const del = await fetch(`${p.url}/v1/user/tokens/${tokenId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${added.json.token}` },
    });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    await expect
      .poll(async () => (await eveApi.user.getAuthenticatedUser().catch((e) => e)).code, { timeout: 5_000 })
      .toBe(401);
    expect((await p.client(added.json.token).user.getAuthenticatedUser()).status).toBe(200);
    // Someone else's token id is not found, not revealed.
    const foreign = await fetch(`${p.url}/v1/user/tokens/${tokenId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${boot.token}` },
    });
    expect(foreign.status).toBe(404);
  });
});
