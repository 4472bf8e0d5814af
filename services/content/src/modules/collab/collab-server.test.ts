import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import fc from 'fast-check';
import WebSocket from 'ws';
import * as encoding from 'lib0/encoding';
import type { Actor } from '@quire/contracts';
import {
  createTestDatabase,
  startTestService,
  userActor,
  type TestDatabase,
  type TestService,
  eventuallyPasses,
} from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { COLLAB_LIMITS, COLLAB_PATH } from './collab-server.ts';
import {
  closeEditor,
  collabUrl,
  headerOf,
  openEditor,
  openEditorAs,
  writePageThroughApi,
  pageOfChangeRequest as pageOf,
  socketWithActor,
  stubMembers,
  textOf,
  typeInto,
} from './collab.fixtures.ts';

const ORG = 'org-collab';
const writerA = userActor('writer-a', [{ organization: ORG, role: 'admin' }]);
const writerB = userActor('writer-b', [{ organization: ORG, role: 'admin' }]);
const reader = userActor('reader-r', [{ organization: ORG, role: 'read' }]);

let db: TestDatabase;
let t: TestService;
const start = async () => {
  t = await startTestService(contentService, loadContentConfig, db);
  stubMembers(t, ORG, { 'writer-a': 'admin', 'writer-b': 'admin', 'reader-r': 'read' });
};
beforeAll(async () => {
  db = await createTestDatabase('content-collab');
  await start();
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const providers: HocuspocusProvider[] = [];
const open = (actor: Actor, name: string) => openEditorAs(t, actor, name, providers);
const close = closeEditor;
const pageOfChangeRequest = (markdown: string) => pageOf(() => t, ORG, writerA, markdown);

describe('live collaboration on a change request page', () => {
  it('two writers converge, a reader sees their edits and cannot write, the page document gets the edit', async () => {
    const { name, markdownNow } = await pageOfChangeRequest('Hello world\n');
    const a = await open(writerA, name);
    const b = await open(writerB, name);
    const r = await open(reader, name);
    await eventuallyPasses(() => expect(a.text()).toContain('Hello world'));
    await eventuallyPasses(() => expect(b.text()).toContain('Hello world'));
    await eventuallyPasses(() => expect(r.events.readOnly).toBe(true));
    expect(a.events.readOnly).toBe(false);

    typeInto(a.provider.document, 'Alpha ');
    typeInto(b.provider.document, 'Beta ');
    await eventuallyPasses(() => {
      expect(a.text()).toBe(b.text());
      expect(a.text()).toContain('Alpha ');
      expect(a.text()).toContain('Beta ');
      expect(r.text()).toBe(a.text());
    });
    // The reader's own update is refused by the server: the writers never see it.
    typeInto(r.provider.document, 'Reader ');
    await new Promise((res) => setTimeout(res, 300));
    expect(a.text()).not.toContain('Reader');

    // Once the last writer leaves, the change request's page holds what they wrote.
    close(a.provider);
    close(b.provider);
    close(r.provider);
    await eventuallyPasses(async () => {
      const md = await markdownNow();
      expect(md).toContain('Alpha');
      expect(md).toContain('Beta');
      expect(md).toContain('Hello world');
    }, 15_000);
  });

  it('refuses a socket without a signed member (401) and a document the member may not see', async () => {
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}${COLLAB_PATH}`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => {});
    });
    expect(refused).toBe(401);
    const { name } = await pageOfChangeRequest('Secret\n');
    const stranger = userActor('stranger', [{ organization: 'another-org', role: 'admin' }]);
    const s = await open(stranger, name);
    await eventuallyPasses(() => expect(s.events.denied).toBe('permission-denied'));
    expect(s.text()).toBe('');
    close(s.provider);
  });

  it('an acknowledged edit survives the loss of the instance, and a restart', async () => {
    const { name, markdownNow } = await pageOfChangeRequest('Before restart\n');
    const a = await open(writerA, name);
    await eventuallyPasses(() => expect(a.text()).toContain('Before restart'));
    typeInto(a.provider.document, 'Kept ');
    await eventuallyPasses(() => expect(a.provider.unsyncedChanges).toBe(0));
    // Acknowledged, not yet stored (the store waits for a quiet time): a second instance on the same database, which
    // never heard of the edit, opens the document with it (the first instance is as good as gone for it).
    const other = await startTestService(contentService, loadContentConfig, db);
    try {
      const elsewhere = openEditor(other, await headerOf(writerB), name).provider;
      await eventuallyPasses(() => expect(textOf(elsewhere.document)).toContain('Kept Before restart'));
      close(elsewhere);
    } finally {
      await other.close();
    }
    // A restart of the instance: the last writer's edit is in the change request, and the document reopens with it.
    close(a.provider);
    await t.close();
    await start();
    expect(await markdownNow()).toContain('Kept Before restart');
    const again = await open(writerB, name);
    await eventuallyPasses(() => expect(again.text()).toContain('Kept Before restart'));
    close(again.provider);
  });

  it('an API write to a page open in editors reaches them', async () => {
    const { ids, name } = await pageOfChangeRequest('Old text\n');
    const a = await open(writerA, name);
    await eventuallyPasses(() => expect(a.text()).toContain('Old text'));
    await writePageThroughApi(t, ids, 'New text from the API\n', writerB);
    await eventuallyPasses(() => expect(a.text()).toContain('New text from the API'), 10_000);
    expect(a.text()).not.toContain('Old text');
    close(a.provider);
  });

  describe('limits: a bad message closes its own connection only', () => {
    /** A raw socket as `actor`, authenticated on `name` with Hocuspocus' auth message; resolves once open. */
    async function rawSocket(actor: Actor, name: string) {
      const ws = new (socketWithActor(await headerOf(actor)))(collabUrl(t));
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      await new Promise((resolve) => ws.on('open', resolve));
      const auth = encoding.createEncoder();
      encoding.writeVarString(auth, name);
      encoding.writeVarUint(auth, 2); // Auth
      encoding.writeVarUint(auth, 0); // Token
      encoding.writeVarString(auth, 'unused');
      ws.send(encoding.toUint8Array(auth));
      return { ws, closed };
    }
    const syncUpdate = (name: string, update: Uint8Array) => {
      const e = encoding.createEncoder();
      encoding.writeVarString(e, name);
      encoding.writeVarUint(e, 0); // Sync
      encoding.writeVarUint(e, 2); // Update
      encoding.writeVarUint8Array(e, update);
      return encoding.toUint8Array(e);
    };

    it('a malformed update and an oversized message are refused; the other writer goes on', async () => {
      const { name, markdownNow } = await pageOfChangeRequest('Steady\n');
      const a = await open(writerA, name);
      await eventuallyPasses(() => expect(a.text()).toContain('Steady'));

      const bad = await rawSocket(writerB, name);
      await new Promise((r) => setTimeout(r, 200));
      bad.ws.send(syncUpdate(name, new Uint8Array([0xff, 0xff, 0xff, 0x01, 0x02, 0x03, 0x04, 0x05])));
      expect(await bad.closed).toBe(4400);

      const big = await rawSocket(writerB, name);
      big.ws.send(new Uint8Array(COLLAB_LIMITS.maxMessageBytes + 1));
      expect(await big.closed).toBe(1009);

      typeInto(a.provider.document, 'Still ');
      await eventuallyPasses(() => expect(a.provider.unsyncedChanges).toBe(0));
      close(a.provider);
      await eventuallyPasses(async () => expect(await markdownNow()).toContain('Still Steady'), 15_000);
    });

    it('the sync protocol fuzzed: each malformed message closes its own socket or is ignored; the writer goes on', async () => {
      const { name, markdownNow } = await pageOfChangeRequest('Fuzzed\n');
      const a = await open(writerA, name);
      await eventuallyPasses(() => expect(a.text()).toContain('Fuzzed'));
      const bytes = (max: number) => fc.uint8Array({ maxLength: max });
      const framed = (docName: fc.Arbitrary<string>) =>
        fc.tuple(docName, fc.nat({ max: 40 }), fc.nat({ max: 8 }), bytes(200)).map(([doc, type, sub, body]) => {
          const e = encoding.createEncoder();
          encoding.writeVarString(e, doc);
          encoding.writeVarUint(e, type); // 0 sync, 1 awareness, 2 auth, 3 query awareness, … and beyond
          encoding.writeVarUint(e, sub); // sync: 0 step 1, 1 step 2, 2 update
          encoding.writeVarUint8Array(e, body);
          return encoding.toUint8Array(e);
        });
      const message = fc.oneof(
        bytes(300), // no frame at all
        framed(fc.constant(name)), // this document, any message type, garbage payload
        framed(fc.string({ maxLength: 80 })), // a document name never authenticated on this socket
        bytes(200).map((update) => syncUpdate(name, update)), // a malformed Y.js update
        fc.tuple(bytes(100), fc.nat({ max: 99 })).map(([body, cut]) => syncUpdate(name, body).slice(0, cut)), // truncated
      );
      let closedByServer = 0;
      await fc.assert(
        fc.asyncProperty(message, async (msg) => {
          const raw = await rawSocket(writerB, name);
          raw.ws.send(msg);
          const code = await Promise.race([raw.closed, new Promise<null>((r) => setTimeout(() => r(null), 150))]);
          if (code !== null) {
            closedByServer++;
            // Closed as a protocol error or an unprocessable message, never as the server failing (1011).
            expect([1002, 1003, 1007, 1008, 1009, 4400, 4401, 4403, 4413]).toContain(code);
          } else {
            raw.ws.close();
            await raw.closed;
          }
        }),
        { numRuns: 80, seed: 20261129 },
      );
      expect(closedByServer).toBeGreaterThan(0);
      // The writer on the page was never disturbed: its edit is synced and reaches the change request.
      typeInto(a.provider.document, 'Unshaken ');
      await eventuallyPasses(() => expect(a.provider.unsyncedChanges).toBe(0));
      close(a.provider);
      await eventuallyPasses(async () => expect(await markdownNow()).toContain('Unshaken Fuzzed'), 15_000);
    });

    it('refuses a member more sockets than the limit (429)', async () => {
      const { name } = await pageOfChangeRequest('Many\n');
      const sockets = await Promise.all(
        Array.from({ length: COLLAB_LIMITS.maxSocketsPerMember }, () => rawSocket(writerA, name)),
      );
      const header = await headerOf(writerA);
      const refused = await new Promise<number>((resolve) => {
        const ws = new (socketWithActor(header))(collabUrl(t));
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => {});
      });
      expect(refused).toBe(429);
      for (const s of sockets) s.ws.close();
      await Promise.all(sockets.map((s) => s.closed));
    });
  });
});
