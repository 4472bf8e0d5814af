import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type EventEnvelope } from '@quire/contracts';
import { contentService, loadContentConfig } from '@quire/content';
import { createTestDatabase, createTestNatsBus, eventually, natsAvailable, startTestService, userActor, type TestDatabase, type TestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../../env.ts';
import { sitesService } from '../../service.ts';
import { ContentSpace } from './content-space.entity.ts';

const hasNats = await natsAvailable();

describe.skipIf(!hasNats)('space.created over real NATS JetStream', () => {
  let db: TestDatabase;
  let content: TestService;
  let sites: TestService;
  let contentBus: Awaited<ReturnType<typeof createTestNatsBus>>;

  beforeAll(async () => {
    db = await createTestDatabase('sitesnats');
    // Two services, two NATS connections on one stream: as in distributed mode.
    contentBus = await createTestNatsBus();
    const env = { NATS_URL: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222', NATS_STREAM: contentBus.streamName, NATS_SUBJECT_PREFIX: contentBus.prefix };
    content = await startTestService(contentService, loadContentConfig, db, { bus: contentBus });
    sites = await startTestService(sitesService, loadSitesConfig, db, { env });
  });
  afterAll(async () => {
    await sites?.close();
    await content?.close();
    await contentBus?.cleanup();
    await db?.drop();
  });

  it('reaches the sites projection once per space, even when redelivered', async () => {
    const actor = userActor('u', [{ organization: 'org-n', role: 'admin' }]);
    const space = await content.call(ops.createSpace, { organizationId: 'org-n', title: 'Over NATS' }, actor);
    const row = await eventually(() => sites.svc.deps.orm.em.fork().findOne(ContentSpace, { id: space.id }).then((r) => r ?? undefined), 10_000, 'projection row');
    expect(row).toMatchObject({ organizationId: 'org-n', title: 'Over NATS' });

    // The relay publishing the same envelope again (a retry after a crash) changes nothing.
    const [outbox] = await content.svc.deps.orm.em.getConnection().execute<{ payload: EventEnvelope }[]>(`select payload from content.outbox where type = 'space.created' and payload->'data'->>'space' = ?`, [space.id]);
    if (!outbox) throw new Error('no outbox row');
    await contentBus.publish('content.space.created', outbox.payload);
    const second = await content.call(ops.createSpace, { organizationId: 'org-n', title: 'Second' }, actor);
    await eventually(() => sites.svc.deps.orm.em.fork().findOne(ContentSpace, { id: second.id }).then((r) => r ?? undefined), 10_000, 'second row');
    const processed = await sites.svc.deps.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from sites.processed_event where event_id = ?`, [outbox.payload.id]);
    expect(processed[0]?.n).toBe(1);
    expect(await sites.svc.deps.orm.em.fork().count(ContentSpace, { organizationId: 'org-n' })).toBe(2);
  });
});
