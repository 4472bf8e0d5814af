// npm run bench:collab — live collaboration (issue 41) on `quire start` in a process of its own, through the gateway's
// `/v1/collab` with real Hocuspocus providers (as the app's editor connects), on data made through the API:
//   1. fan-out: BENCH_WRITERS (20) writers on one change request page, each typing BENCH_KEYS_PER_SECOND (4) updates a
//      second for BENCH_SECONDS (15); every update's delay until each other writer's document shows it (p50/p95/p99);
//   2. open documents: BENCH_DOCUMENTS (500) pages of one change request opened at once (multiplexed over sockets of
//      50 documents, as a browser's provider does), the server's resident memory before and after (per document);
//   3. persistence: one writer typing 5 updates a second for BENCH_PERSIST_SECONDS (30): the server's CPU and what
//      the collaboration tables grew by, scaled to a minute of typing.
// Prints the figures; asserts nothing (docs/performance.md quotes them with the commit and the load average).
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import type * as Y from 'yjs';
import { intEnv, NO_RATE_LIMITS } from './env.ts';
import { cpuSeconds, loadAverage, memoryMiB } from './measure.ts';
import { sleep } from './processes.ts';
import { startBenchPlatform, type BenchPlatform } from './standalone.ts';

process.env.BENCH_PLATFORM ||= 'process';
const WRITERS = intEnv('BENCH_WRITERS', 20, 2);
const KEYS_PER_SECOND = intEnv('BENCH_KEYS_PER_SECOND', 4, 1);
const SECONDS = intEnv('BENCH_SECONDS', 15, 1);
const DOCUMENTS = intEnv('BENCH_DOCUMENTS', 500, 1);
const PERSIST_SECONDS = intEnv('BENCH_PERSIST_SECONDS', 30, 1);
const DOCUMENTS_PER_SOCKET = 50;

/** A WebSocket carrying the API token, as a Node client opens one. */
const socketWith = (token: string) =>
  class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${token}` } });
    }
  };

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The first paragraph's text of the editor's document (a Y.XmlText inside the first Y.XmlElement). */
const paragraphText = (doc: Y.Doc) => (doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;

/** A change request of a new space holding `count` pages; its page ids. */
async function changeRequestPages(
  p: BenchPlatform,
  count: number,
): Promise<{ name: (pageId: string) => string; pages: string[] }> {
  const space = await p.call('POST', `/v1/orgs/${p.org}/spaces`, p.token, { title: 'Collaboration bench' });
  const cr = await p.call('POST', `/v1/spaces/${space.id}/change-requests`, p.token, { subject: 'Live' });
  const url = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
  for (let n = 0; n < count; n += 50) {
    const changes = Array.from({ length: Math.min(50, count - n) }, (_, k) => ({
      operation: 'insert_page',
      title: `Page ${n + k + 1}`,
      document: { markdown: `Notes of page ${n + k + 1}, written together.\n` },
    }));
    await p.call('POST', url, p.token, { changes });
  }
  const listed = await p.call('GET', `${url}/pages`, p.token);
  const pages = (listed.pages as { id: string }[]).map((pg) => pg.id);
  return { name: (pageId) => `spaces/${space.id}/change-requests/${cr.id}/page/${pageId}`, pages };
}

interface Client {
  provider: HocuspocusProvider;
  synced: Promise<void>;
}

function openDocument(socket: HocuspocusProviderWebsocket, name: string): Client {
  let done: () => void;
  const synced = new Promise<void>((resolve) => (done = resolve));
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name,
    token: 'api-token-in-the-handshake',
    onSynced: () => done(),
    onAuthenticationFailed: ({ reason }) => {
      throw new Error(`collaboration refused: ${reason}`);
    },
  });
  provider.attach();
  return { provider, synced };
}

const socketOf = (p: BenchPlatform) =>
  new HocuspocusProviderWebsocket({
    url: `${p.base.replace('http', 'ws')}/v1/collab`,
    WebSocketPolyfill: socketWith(p.token),
  });

const closeAll = (clients: Client[], sockets: HocuspocusProviderWebsocket[]) => {
  for (const c of clients) c.provider.destroy();
  for (const s of sockets) s.destroy();
};

/** Part 1: each writer's updates, and how long each took to show in every other writer's document. */
async function fanOut(p: BenchPlatform, name: string): Promise<void> {
  // One socket per writer (each writer is a browser tab of its own).
  const sockets = Array.from({ length: WRITERS }, () => socketOf(p));
  const writers = sockets.map((s) => openDocument(s, name));
  await Promise.all(writers.map((w) => w.synced));
  const sentAt = new Map<string, number>();
  const delays: number[] = [];
  writers.forEach((w, i) => {
    const pending = new Set<string>();
    w.provider.document.on('update', () => {
      if (sentAt.size === 0) return;
      const text = paragraphText(w.provider.document).toString();
      for (const [marker, at] of sentAt) {
        if (marker.startsWith(`w${i}.`) || pending.has(marker)) continue;
        if (text.includes(marker)) {
          pending.add(marker);
          delays.push(performance.now() - at);
        }
      }
    });
  });
  const interval = 1000 / KEYS_PER_SECOND;
  const until = performance.now() + SECONDS * 1000;
  let sent = 0;
  const typers = writers.map(async (w, i) => {
    await sleep(Math.random() * interval);
    for (let seq = 0; performance.now() < until; seq++) {
      const marker = `w${i}.${seq};`;
      sentAt.set(marker, performance.now());
      paragraphText(w.provider.document).insert(0, marker);
      sent++;
      await sleep(interval);
    }
  });
  await Promise.all(typers);
  const expected = sent * (WRITERS - 1);
  const deadline = performance.now() + 10_000;
  while (delays.length < expected && performance.now() < deadline) await sleep(50);
  delays.sort((a, b) => a - b);
  console.log(
    `fan-out, ${WRITERS} writers × ${KEYS_PER_SECOND} updates/s × ${SECONDS} s: ${sent} updates, ${delays.length} of ${expected} deliveries seen;` +
      ` p50 ${ms(percentile(delays, 50))}, p95 ${ms(percentile(delays, 95))}, p99 ${ms(percentile(delays, 99))}, max ${ms(delays.at(-1) ?? Number.NaN)}`,
  );
  closeAll(writers, sockets);
}

/** Part 2: many documents open at once on one instance, and the server's memory for them. */
async function openDocuments(p: BenchPlatform, names: string[]): Promise<void> {
  const before = p.pid ? memoryMiB(p.pid) : undefined;
  const t0 = performance.now();
  const sockets: HocuspocusProviderWebsocket[] = [];
  const clients: Client[] = [];
  for (let i = 0; i < names.length; i++) {
    if (i % DOCUMENTS_PER_SOCKET === 0) sockets.push(socketOf(p));
    clients.push(openDocument(sockets.at(-1)!, names[i]!));
  }
  await Promise.all(clients.map((c) => c.synced));
  const openMs = performance.now() - t0;
  await sleep(2_000);
  const after = p.pid ? memoryMiB(p.pid) : undefined;
  const perDoc = before && after ? ((after.rss - before.rss) * 1024) / names.length : Number.NaN;
  console.log(
    `open documents: ${names.length} over ${sockets.length} sockets, all synced in ${(openMs / 1000).toFixed(1)} s;` +
      ` server RSS ${before?.rss.toFixed(0)} → ${after?.rss.toFixed(0)} MiB (${perDoc.toFixed(0)} KiB a document)`,
  );
  closeAll(clients, sockets);
  await sleep(3_000);
  const closed = p.pid ? memoryMiB(p.pid) : undefined;
  console.log(`  after closing them: server RSS ${closed?.rss.toFixed(0)} MiB`);
}

/** Part 3: one writer typing; the server's CPU beyond idle and the rows written, per minute of typing. */
async function persistence(p: BenchPlatform, name: string): Promise<void> {
  const one = async (sql: string) => Number((await p.db.query(sql)).rows[0]?.n ?? 0);
  const rowsWritten = () =>
    one(
      `select coalesce(sum(n_tup_ins + n_tup_upd), 0)::bigint as n from pg_stat_user_tables where relname in ('collab_update', 'collab_document')`,
    );
  const stateBytes = () =>
    one(
      `select coalesce(sum(octet_length(state)), 0)::bigint as n from content.collab_document where name = '${name}'`,
    );
  const cpu = () => (p.pid ? (cpuSeconds([p.pid]) ?? Number.NaN) : Number.NaN);
  const socket = socketOf(p);
  const writer = openDocument(socket, name);
  await writer.synced;
  await sleep(2_000);
  // The server's CPU while the writer is connected and idle, as much time as the typing and its write-back take.
  const idleSeconds = PERSIST_SECONDS + 12;
  const idle0 = cpu();
  await sleep(idleSeconds * 1000);
  const idlePerSecond = (cpu() - idle0) / idleSeconds;
  const [rows0, cpu0] = [await rowsWritten(), cpu()];
  const until = performance.now() + PERSIST_SECONDS * 1000;
  let updates = 0;
  while (performance.now() < until) {
    paragraphText(writer.provider.document).insert(0, 'x');
    updates++;
    await sleep(200);
  }
  await sleep(12_000); // past the debounce (at most 10 s): the GitBook document is written too
  const [rows1, cpu1] = [await rowsWritten(), cpu()];
  const perMinute = 60 / PERSIST_SECONDS;
  const busy = (cpu1 - cpu0 - idlePerSecond * idleSeconds) * perMinute;
  console.log(
    `persistence, 1 writer × 5 updates/s × ${PERSIST_SECONDS} s (${updates} updates): per minute of typing` +
      ` ${((rows1 - rows0) * perMinute).toFixed(0)} rows written, ${busy.toFixed(2)} s of server CPU beyond idle` +
      ` (idle: ${(idlePerSecond * 60).toFixed(2)} s a minute); the Y.js state stored: ${await stateBytes()} bytes`,
  );
  closeAll([writer], [socket]);
}

const p = await startBenchPlatform('collab', NO_RATE_LIMITS);
try {
  console.log(`bench:collab on ${p.mode} quire (${p.base}), load average ${loadAverage()}`);
  const { name, pages } = await changeRequestPages(p, Math.max(DOCUMENTS, 2));
  await fanOut(p, name(pages[0]!));
  await openDocuments(p, pages.slice(0, DOCUMENTS).map(name));
  await persistence(p, name(pages[1]!));
  console.log(`load average ${loadAverage()}`);
} finally {
  await p.stop();
}
process.exit(0);
