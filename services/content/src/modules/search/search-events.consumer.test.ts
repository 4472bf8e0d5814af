import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type EventEnvelope } from '@quire/contracts';
import { sql } from '@quire/kit';
import {
  createTestDatabase,
  createTestNatsBus,
  eventually,
  natsAvailable,
  orgAdmin,
  startTestService,
  type TestDatabase,
  type TestService,
} from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { insertPage, mergeChanges } from './search.fixtures.ts';
import { SEARCH_EVENTS_CONSUMER } from './search-events.consumer.ts';

const hasNats = await natsAvailable();

describe.skipIf(!hasNats)('search index over real NATS JetStream', () => {
  let db: TestDatabase;
  let t: TestService;
  let bus: Awaited<ReturnType<typeof createTestNatsBus>>;
  const admin = orgAdmin('org-nats-search');

  beforeAll(async () => {
    db = await createTestDatabase('searchnats');
    bus = await createTestNatsBus();
    t = await startTestService(contentService, loadContentConfig, db, { bus });
  });
  afterAll(async () => {
    await t?.close();
    await bus?.cleanup();
    await db?.drop();
  });

  const rows = <T>(text: string, params: unknown[] = []) => sql<T>(t.em(), text, params);
  const indexedRevision = async (spaceId: string) =>
    (
      await rows<{ revision_id: string | null }>(`select revision_id from :schema.search_space where space_id = ?`, [
        spaceId,
      ])
    )[0]?.revision_id;
  const pageVersions = async (spaceId: string) =>
    rows<{ page_id: string; xmin: string }>(
      `select page_id, xmin::text from :schema.search_page where space_id = ? order by page_id`,
      [spaceId],
    );
  const found = async (spaceId: string, query: string) =>
    (await t.call(ops.searchSpaceContent, { spaceId, query }, admin)).items.map((i) => i.title);

  it('makes a merge searchable, once per event, and ignores an old event delivered late', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org-nats-search', title: 'Over NATS' }, admin);
    const first = await mergeChanges(
      t,
      space.id,
      [insertPage('Gardening', 'Planting tulips in autumn.'), insertPage('Cooking', 'Boiling potatoes.')],
      admin,
    );
    // How soon is measured by the benches, not here (a loaded machine delays the consumer): it happens, once.
    await eventually(async () => (await indexedRevision(space.id)) === first, 10_000, 'the first merge indexed');
    expect(await found(space.id, 'planted')).toEqual(['Gardening']);

    const [envelope] = (await t.outboxEvents('space.content-updated')).filter(
      (e) => (e.data as { revision: string }).revision === first,
    );
    if (!envelope) throw new Error('no space.content-updated in the outbox');
    const cooking = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages.find(
      (p) => p.title === 'Cooking',
    )!;
    const second = await mergeChanges(
      t,
      space.id,
      [{ operation: 'update_page', page: cooking.id, document: { markdown: 'Roasting potatoes.' } }],
      admin,
    );
    await eventually(async () => (await indexedRevision(space.id)) === second, 10_000, 'the second merge indexed');
    expect(await found(space.id, 'roasted')).toEqual(['Cooking']);
    const versions = await pageVersions(space.id);

    // The relay publishing the first event again (a retry) is skipped; the same change under a new id (late) finds the
    // index already at the live revision: nothing is rewritten.
    await bus.publish('content.space.content-updated', envelope);
    await bus.publish('content.space.content-updated', {
      ...envelope,
      id: `${envelope.id}-late`,
    } satisfies EventEnvelope);
    await eventually(
      async () => {
        const [row] = await rows<{ n: number }>(
          `select count(*)::int as n from :schema.processed_event where consumer = ? and event_id like ?`,
          [SEARCH_EVENTS_CONSUMER, `${envelope.id}%`],
        );
        return row!.n === 2;
      },
      10_000,
      'both deliveries handled',
    );
    expect(await pageVersions(space.id)).toEqual(versions);
    expect(await indexedRevision(space.id)).toBe(second);
    expect(await found(space.id, 'boiling')).toEqual([]);
  });
});
