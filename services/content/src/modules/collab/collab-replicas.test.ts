import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import type { Actor } from '@quire/contracts';
import {
  createTestDatabase,
  createTestNatsBus,
  natsAvailable,
  startTestService,
  TEST_NATS_URL,
  userActor,
  type TestDatabase,
  type TestService,
  eventuallyPasses,
} from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { COLLAB_LIMITS, collabUpgrades } from './collab-server.ts';
import { editorConversion } from './editor-conversion.ts';
import {
  closeEditor,
  openEditorAs,
  writePageThroughApi,
  pageOfChangeRequest as pageOf,
  stubMembers,
  typeInto,
} from './collab.fixtures.ts';

/**
 * Two content replicas on one database and one NATS, as compose runs them (issue 41, item 5): a document open on both
 * is the same document, its updates and cursors fanned out over NATS.
 */
const hasNats = await natsAvailable();

const ORG = 'org-replicas';
const ann = userActor('ann', [{ organization: ORG, role: 'admin' }]);
const bob = userActor('bob', [{ organization: ORG, role: 'admin' }]);

const occurrences = (text: string, words: string) => text.split(words).length - 1;
/**
 * The replicas store a document only when its last writer leaves (a quiet time longer than any test): while writers
 * are connected, nothing but the fan-out can bring one replica's edits to the other (without it, the other replica
 * would read them from the database once stored and announced).
 */
const replicaService = {
  ...contentService,
  upgrades: collabUpgrades(editorConversion, { ...COLLAB_LIMITS, debounceMs: 60_000, maxDebounceMs: 120_000 }),
};
/** How soon an edit must reach a client of the other replica (a loaded test machine: the fan-out took 33–312 ms). */
const LIVE_MS = 10_000;

describe.skipIf(!hasNats)('live documents on two content replicas over NATS', () => {
  let db: TestDatabase;
  let one: TestService;
  let two: TestService;
  /** The stream and prefix both replicas use (each connects on its own, as two processes would). */
  let bus: Awaited<ReturnType<typeof createTestNatsBus>>;
  const replica = async () => {
    const env = { NATS_URL: TEST_NATS_URL, NATS_STREAM: bus.streamName, NATS_SUBJECT_PREFIX: bus.prefix };
    const t = await startTestService(replicaService, loadContentConfig, db, { env });
    stubMembers(t, ORG, { ann: 'admin', bob: 'admin' });
    return t;
  };
  beforeAll(async () => {
    db = await createTestDatabase('content-replicas');
    bus = await createTestNatsBus();
    one = await replica();
    two = await replica();
  });
  const providers: HocuspocusProvider[] = [];
  afterAll(async () => {
    for (const p of providers) close(p);
    await one?.close();
    await two?.close();
    await bus?.cleanup();
    await db?.drop();
  });

  const openAs = (t: TestService, actor: Actor, name: string) => openEditorAs(t, actor, name, providers);
  const close = closeEditor;
  const pageOfChangeRequest = (markdown: string) => pageOf(() => one, ORG, ann, markdown);

  it("opened on both at once, seeded once; each replica's edits and cursors reach the other's clients", async () => {
    const { name, markdownNow } = await pageOfChangeRequest('Hello world\n');
    const [a, b] = await Promise.all([openAs(one, ann, name), openAs(two, bob, name)]);
    await eventuallyPasses(() => expect(a.text()).toContain('Hello world'));
    await eventuallyPasses(() => expect(b.text()).toContain('Hello world'));
    await new Promise((r) => setTimeout(r, 300));
    expect(occurrences(a.text(), 'Hello world')).toBe(1);
    expect(b.text()).toBe(a.text());

    const started = performance.now();
    typeInto(a.provider.document, 'Alpha ');
    await eventuallyPasses(() => expect(b.text()).toContain('Alpha Hello world'), LIVE_MS);
    const oneWay = performance.now() - started;
    typeInto(b.provider.document, 'Beta ');
    await eventuallyPasses(() => expect(a.text()).toContain('Beta '), LIVE_MS);
    await eventuallyPasses(() => expect(a.text()).toBe(b.text()));
    console.info(`collab replicas: an edit on one replica reached a client of the other in ${Math.round(oneWay)} ms`);

    a.provider.setAwarenessField('user', { name: 'Ann' });
    await eventuallyPasses(
      () => expect([...b.provider.awareness!.getStates().values()].map((s) => s.user?.name)).toContain('Ann'),
      LIVE_MS,
    );

    // Both writers leave: each replica stores; the change request holds both edits, once each.
    close(a.provider);
    close(b.provider);
    await eventuallyPasses(async () => {
      const md = await markdownNow();
      expect(md).toContain('Alpha');
      expect(md).toContain('Beta');
      expect(occurrences(md, 'Hello world')).toBe(1);
    }, 15_000);
  });

  it('an API write reaches the clients of both replicas, once', async () => {
    const { ids, name } = await pageOfChangeRequest('Old text\n');
    const a = await openAs(one, ann, name);
    const b = await openAs(two, bob, name);
    await eventuallyPasses(() => expect(a.text()).toContain('Old text'));
    await eventuallyPasses(() => expect(b.text()).toContain('Old text'));
    await writePageThroughApi(one, ids, 'New text from the API\n', bob);
    await eventuallyPasses(() => {
      expect(a.text()).toContain('New text from the API');
      expect(b.text()).toBe(a.text());
    }, 10_000);
    // Both replicas heard of the write; one applied it, the other found it stored: the content is there once.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(occurrences(a.text(), 'New text from the API')).toBe(1);
    expect(a.text()).not.toContain('Old text');
    expect(b.text()).toBe(a.text());
    close(a.provider);
    close(b.provider);
  });

  it('a writer moved from one replica to the other keeps its acknowledged edits', async () => {
    const { name, markdownNow } = await pageOfChangeRequest('Moving\n');
    const a = await openAs(one, ann, name);
    const watcher = await openAs(two, bob, name);
    await eventuallyPasses(() => expect(a.text()).toContain('Moving'));
    typeInto(a.provider.document, 'Typed on one ');
    await eventuallyPasses(() => expect(a.provider.unsyncedChanges).toBe(0));
    await eventuallyPasses(() => expect(watcher.text()).toContain('Typed on one Moving'), LIVE_MS);

    // The same writer reconnects to the other replica (as a load balancer would send it there).
    close(a.provider);
    const moved = await openAs(two, ann, name);
    await eventuallyPasses(() => expect(moved.text()).toContain('Typed on one Moving'));
    typeInto(moved.provider.document, 'Then on two ');
    await eventuallyPasses(() => expect(watcher.text()).toContain('Then on two Typed on one Moving'), LIVE_MS);
    close(moved.provider);
    close(watcher.provider);
    await eventuallyPasses(
      async () => expect(await markdownNow()).toContain('Then on two Typed on one Moving'),
      15_000,
    );
  });
});
