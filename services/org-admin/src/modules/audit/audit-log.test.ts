import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type EventEnvelope } from '@quire/contracts';
import { ActorSigner, HttpTransport, ServiceClient } from '@quire/kit';
import {
  createTestDatabase,
  createTestNatsBus,
  eventually,
  failureOf,
  natsAvailable,
  startTestService,
  TEST_NATS_URL,
  TEST_SECRET,
  userActor,
  type TestDatabase,
  type TestService,
} from '@quire/kit/testing';
import { loadOrgAdminConfig } from '../../env.ts';
import { orgAdminService } from '../../service.ts';
import { AUDIT_LOG_CONSUMER } from './audit-events.consumer.ts';
import { auditRetentionJob } from './audit-retention.job.ts';

const hasNats = await natsAvailable();

/** org-admin and content as in distributed mode: two processes' worth of services, one JetStream stream. */
describe.skipIf(!hasNats)('the audit log over real NATS JetStream', () => {
  let db: TestDatabase;
  let orgAdmin: TestService;
  let content: TestService;
  let contentBus: Awaited<ReturnType<typeof createTestNatsBus>>;
  const admin = userActor('audit-admin', [{ organization: 'org-a', role: 'admin' }]);
  const editor = userActor('audit-editor', [{ organization: 'org-a', role: 'edit' }]);
  const outsider = userActor('audit-outsider', [{ organization: 'org-b', role: 'admin' }]);
  const rows = async (where = 'true', params: unknown[] = []) =>
    orgAdmin.em().getConnection().execute<
      {
        id: string;
        action: string;
        organization_id: string | null;
        record: {
          requestId?: string;
          ip?: string;
          userAgent?: string;
          actor: { tokenId?: string };
          targets: { id: string }[];
        };
      }[]
    >(
      `select id, action, organization_id, record from org_admin.audit_event where ${where} order by occurred_at, id`,
      params,
    );
  const count = async (where = 'true', params: unknown[] = []) => (await rows(where, params)).length;

  beforeAll(async () => {
    db = await createTestDatabase('auditnats');
    contentBus = await createTestNatsBus();
    const env = { NATS_URL: TEST_NATS_URL, NATS_STREAM: contentBus.streamName, NATS_SUBJECT_PREFIX: contentBus.prefix };
    content = await startTestService(
      (await import('@quire/content')).contentService,
      (await import('@quire/content')).loadContentConfig,
      db,
      { bus: contentBus },
    );
    orgAdmin = await startTestService(orgAdminService, loadOrgAdminConfig, db, {
      env: { ...env, QUIRE_AUDIT_RETENTION_DAYS: '30' },
    });
    content.svc.deps.peers.setEndpoint('org-admin', orgAdmin.url);
    orgAdmin.svc.deps.peers.setEndpoint('content', content.url);
  });
  afterAll(async () => {
    await orgAdmin?.close();
    await content?.close();
    await contentBus?.cleanup();
    await db?.drop();
  });

  it('records each mutation once, with the caller, its token, request id, address and user agent; reads record nothing', async () => {
    // A call as the gateway makes it: request id, client address and user agent forwarded over HTTP.
    const client = new ServiceClient('content', new HttpTransport('content', content.url));
    const signer = new ActorSigner(TEST_SECRET);
    const withToken = { ...admin, tokenId: 'tok-1' } as typeof admin;
    const call = {
      actorHeader: (await signer.sign(withToken)).header,
      requestId: 'req-audit-1',
      client: { ip: '198.51.100.7', userAgent: 'quire-test/1.0 (ünï→)' },
    };
    const space = await client.call(ops.createSpace, { organizationId: 'org-a', title: 'Audited' }, call);
    await client.close();
    await content.call(ops.getSpaceById, { spaceId: space.id }, admin);
    await content.call(ops.listSpaces, { organizationId: 'org-a' }, admin);
    await content.call(ops.updateSpaceById, { spaceId: space.id, title: 'Renamed' }, admin);

    const [created] = await eventually(
      async () => ((await count()) === 2 ? rows("action = 'spaces.create'") : undefined),
      10_000,
      'two entries',
    );
    expect(created).toMatchObject({
      organization_id: 'org-a',
      record: {
        requestId: 'req-audit-1',
        ip: '198.51.100.7',
        userAgent: 'quire-test/1.0 (ünï?)',
        actor: { tokenId: 'tok-1' },
      },
    });
    expect((await rows()).map((r) => r.action)).toEqual(['spaces.create', 'spaces.update']);
  });

  it('keeps nothing of a mutation that failed: the record was in its rolled-back transaction', async () => {
    const before = await count();
    const err = await failureOf(content.call(ops.updateSpaceById, { spaceId: 'no-such-space', title: 'x' }, admin));
    expect(err).toMatchObject({ reason: 'not_found' });
    const refused = await failureOf(
      content.call(
        ops.createSpace,
        { organizationId: 'org-a', title: 'Nope' },
        userActor('r', [{ organization: 'org-a', role: 'read' }]),
      ),
    );
    expect(refused).toMatchObject({ reason: 'forbidden' });
    // A change that records no event of its own (a reviewer removed) is placed by the service: the space's organization.
    const space = await content.call(ops.createSpace, { organizationId: 'org-a', title: 'Reviews' }, admin);
    const cr = await content.call(ops.createChangeRequest, { spaceId: space.id, subject: 'Draft' }, admin);
    await content.call(
      ops.removeRequestedReviewerFromChangeRequest,
      { spaceId: space.id, changeRequestId: cr.id, userId: 'nobody' },
      admin,
    );
    const [removal] = await eventually(
      async () => {
        const found = await rows("action = 'changeRequestReviewers.delete'");
        return found.length ? found : undefined;
      },
      10_000,
      'the reviewer removal',
    );
    expect(removal).toMatchObject({
      organization_id: 'org-a',
      record: { events: [], target: { type: 'user', id: 'nobody' } },
    });
    expect(removal!.record.targets.map((t) => t.id)).toEqual(['nobody', cr.id, space.id, 'org-a']);
    // A mutation after them is recorded: once it is in, anything before it would be too.
    await content.call(ops.createSpace, { organizationId: 'org-a', title: 'After' }, admin);
    await eventually(async () => (await count()) === before + 4, 10_000, 'the next entries');
    const outbox = await content.outboxEvents('audit.recorded');
    expect(outbox).toHaveLength(before + 4);
  });

  it('drops a redelivered record (the relay publishing again after a crash)', async () => {
    const [first] = await content.outboxEvents('audit.recorded');
    await contentBus.publish('content.audit.recorded', first as EventEnvelope);
    await contentBus.publish('content.audit.recorded', {
      ...(first as EventEnvelope),
      id: 'another-envelope-same-record',
    });
    await content.call(ops.createSpace, { organizationId: 'org-a', title: 'Marker' }, admin);
    await eventually(async () => (await count("action = 'spaces.create'")) === 4, 10_000, 'marker');
    expect(await count('id = ?', [(first!.data as { id: string }).id])).toBe(1);
    const [processed] = await orgAdmin
      .em()
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from org_admin.processed_event where consumer = ?`, [
        AUDIT_LOG_CONSUMER,
      ]);
    expect(processed!.n).toBe((await count()) + 1);
  });

  it('serves the log to organization admins only, filtered and keyset-paged, newest first', async () => {
    // org-admin's own mutations go the same way (its outbox, the bus, the consumer).
    const boot = await orgAdmin.call(
      ops.bootstrapInstance,
      { title: 'Audited', email: 'boss@audit.test', name: 'Boss' },
      { kind: 'instance-admin' },
    );
    const org = boot.organization.id;
    const boss = userActor(boot.user.id, [{ organization: org, role: 'admin' }]);
    await orgAdmin.call(ops.createOrganizationTeam, { organizationId: org, title: 'Writers' }, boss);
    const own = await eventually(
      async () => {
        const list = await orgAdmin.call(ops.listOrganizationAuditEvents, { organizationId: org }, boss);
        return list.count === 2 ? list.items : undefined;
      },
      10_000,
      'org-admin entries',
    );
    expect(own.map((i) => [i.action, i.actor, i.target.type])).toEqual([
      ['organization.team.created', { type: 'user', id: boot.user.id, label: 'Boss' }, 'team'],
      ['admin.bootstrap', { type: 'system', id: 'instance-admin' }, 'organization'],
    ]);
    const total = await count('organization_id = ?', ['org-a']);
    const all = await orgAdmin.call(ops.listOrganizationAuditEvents, { organizationId: 'org-a', limit: 100 }, admin);
    expect(all.count).toBe(total);
    expect(all.items.map((i) => i.occurredAt)).toEqual([...all.items.map((i) => i.occurredAt)].sort().reverse());
    expect(all.items[0]).toMatchObject({
      object: 'audit-event',
      source: 'api',
      actor: { type: 'user', id: 'audit-admin' },
      urls: { location: expect.stringContaining('/v1/orgs/org-a/audit-events/') },
    });

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await orgAdmin.call(
        ops.listOrganizationAuditEvents,
        { organizationId: 'org-a', limit: 2, ...(page ? { page } : {}) },
        admin,
      );
      expect(res.count).toBe(total);
      seen.push(...res.items.map((i) => i.id));
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((i) => i.id));

    const creates = await orgAdmin.call(
      ops.listOrganizationAuditEvents,
      { organizationId: 'org-a', action: 'spaces.update' },
      admin,
    );
    expect(creates.items.map((i) => i.action)).toEqual(['spaces.update']);
    const spaceId = creates.items[0]!.target.id;
    expect(creates.items[0]!.target).toEqual({ type: 'space', id: spaceId, label: 'Renamed' });
    const onSpace = await orgAdmin.call(
      ops.listOrganizationAuditEvents,
      { organizationId: 'org-a', target: spaceId },
      admin,
    );
    expect(onSpace.items.map((i) => i.action).sort()).toEqual(['spaces.create', 'spaces.update']);
    expect(
      (await orgAdmin.call(ops.listOrganizationAuditEvents, { organizationId: 'org-a', actor: 'nobody' }, admin)).count,
    ).toBe(0);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await orgAdmin.call(ops.listOrganizationAuditEvents, { organizationId: 'org-a', from: future }, admin)).count,
    ).toBe(0);
    expect(
      (await orgAdmin.call(ops.listOrganizationAuditEvents, { organizationId: 'org-a', to: future }, admin)).count,
    ).toBe(total);

    const details = await orgAdmin.call(
      ops.getOrganizationAuditEvent,
      { organizationId: 'org-a', auditEventId: onSpace.items.at(-1)!.id },
      admin,
    );
    expect(details).toMatchObject({
      action: 'spaces.create',
      executionId: 'req-audit-1',
      schemaVersion: 1,
      payload: {
        service: 'content',
        operationId: 'createSpace',
        tokenId: 'tok-1',
        ip: '198.51.100.7',
        fields: ['title'],
        events: ['space.created'],
      },
    });
    const actions = await orgAdmin.call(ops.listOrganizationAuditEventActions, { organizationId: 'org-a' }, admin);
    expect(actions.items).toContainEqual({
      object: 'audit-event-action',
      id: 'spaces.create',
      label: expect.any(String),
    });
    expect(actions.items).toContainEqual({
      object: 'audit-event-action',
      id: 'organization.team.created',
      label: 'Created organization team',
    });
    expect(actions.items.map((a) => a.id)).not.toContain('spaces.get');

    expect(
      await failureOf(orgAdmin.call(ops.listOrganizationAuditEvents, { organizationId: 'org-a' }, editor)),
    ).toMatchObject({ reason: 'forbidden', message: 'Only organization admins can read the audit log' });
    expect(
      await failureOf(
        orgAdmin.call(ops.getOrganizationAuditEvent, { organizationId: 'org-a', auditEventId: details.id }, outsider),
      ),
    ).toMatchObject({ reason: 'not_found' });
    expect(
      await failureOf(
        orgAdmin.call(ops.getOrganizationAuditEvent, { organizationId: 'org-b', auditEventId: details.id }, outsider),
      ),
    ).toMatchObject({ reason: 'not_found' });
    expect(
      await failureOf(
        orgAdmin.call(ops.listOrganizationAuditEvents, { organizationId: 'org-a', page: 'bm90LWEtY3Vyc29y' }, admin),
      ),
    ).toMatchObject({ reason: 'invalid_input' });
  });

  it('is append-only, and the retention job purges what is older than the setting', async () => {
    const conn = orgAdmin.em().getConnection();
    /** One run of the retention job, keeping `days` days (0: everything). */
    const retain = (days: number, id: string) =>
      auditRetentionJob(orgAdmin.svc.deps.orm, days, orgAdmin.svc.deps.log).run({
        id,
        job: 'x',
        payload: undefined,
        attempt: 1,
        enqueuedAt: new Date().toISOString(),
      });
    await expect(conn.execute(`update org_admin.audit_event set action = 'forged'`)).rejects.toThrow(/append-only/);
    const total = await count();
    await conn.execute(`alter table org_admin.audit_event disable trigger audit_event_append_only`);
    await conn.execute(
      `update org_admin.audit_event set occurred_at = now() - interval '31 days' where action = 'spaces.update'`,
    );
    await conn.execute(`alter table org_admin.audit_event enable trigger audit_event_append_only`);
    await retain(30, 'r');
    expect(await count()).toBe(total - 1);
    expect(await count("action = 'spaces.update'")).toBe(0);
    // 0 keeps everything.
    await retain(0, 'r2');
    expect(await count()).toBe(total - 1);
  });
});
