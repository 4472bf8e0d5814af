import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '@quire/kit';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import pg from 'pg';
import WebSocket from 'ws';
import type * as Y from 'yjs';
import { createTestDatabase, eventuallyPasses, type TestDatabase } from '@quire/kit/testing';

/** The assertions of this file wait up to 10 s (a restarted instance), polling every 50 ms. */
const eventually10s = (check: () => unknown, timeoutMs = 10_000) => eventuallyPasses(check, timeoutMs, 50);
import { changeRequestWith, runCliCaptured } from './harness.ts';

/**
 * Issue 41, item 3: an edit acknowledged by the sync server survives `kill -9` of the instance. The instance runs as
 * a process of its own (`quire start`, as people run it); the test types into a page through the gateway's
 * `/v1/collab`, kills the process with SIGKILL while keystrokes are still going out, starts it again on the same
 * database, and finds every keystroke the server had acknowledged: in the document a new client opens, and in the
 * change request once that document is open again.
 */

const BIN = resolve(import.meta.dirname, '../../bin/quire.ts');

/** The first paragraph's text (the editor's paragraph: an element holding a Y.XmlText). */
const paragraphOf = (doc: Y.Doc) =>
  ((doc.getXmlFragment('default').get(0) as Y.XmlElement | undefined)?.get(0) as Y.XmlText | undefined)?.toString() ??
  '';

describe('kill -9 of the instance mid-edit', () => {
  let db: TestDatabase;
  let dataDir: string;
  let url: string;
  let env: NodeJS.ProcessEnv;
  let instance: ChildProcess | undefined;
  const providers: HocuspocusProvider[] = [];

  /** `quire start` as a child process; resolves once the gateway answers `/readyz` (~1 min at a load average of 15). */
  async function start(): Promise<void> {
    const log = openSync(join(dataDir, 'instance.log'), 'a');
    const child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', log, log] });
    closeSync(log);
    instance = child;
    await eventually10s(async () => {
      if (child.exitCode !== null)
        throw new Error(
          `the instance exited (${child.exitCode}): ${readFileSync(join(dataDir, 'instance.log'), 'utf8')}`,
        );
      expect((await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) })).ok).toBe(true);
    }, 180_000);
  }

  async function kill9(): Promise<void> {
    const child = instance!;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
  }

  beforeAll(async () => {
    db = await createTestDatabase('e2ekill');
    dataDir = mkdtempSync(join(tmpdir(), 'quire-kill-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.url,
      QUIRE_DATA_DIR: dataDir,
      PORT: String(port),
      QUIRE_PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      QUIRE_RATE_LIMIT_PER_MINUTE: '0',
      QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
      QUIRE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0',
    };
    await start();
  }, 200_000);

  afterAll(async () => {
    for (const p of providers) {
      p.destroy();
      p.configuration.websocketProvider.destroy();
    }
    if (instance && instance.exitCode === null && instance.signalCode === null) {
      const exited = new Promise((r) => instance!.once('exit', r));
      instance.kill('SIGTERM');
      await exited;
    }
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function open(token: string, name: string) {
    const provider = new HocuspocusProvider({
      websocketProvider: new HocuspocusProviderWebsocket({
        url: `${url.replace('http', 'ws')}/v1/collab`,
        WebSocketPolyfill: class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols, { headers: { authorization: `Bearer ${token}` } });
          }
        },
      }),
      name,
      token: 'unused',
    });
    provider.attach();
    providers.push(provider);
    return provider;
  }
  const close = (p: HocuspocusProvider) => {
    p.destroy();
    p.configuration.websocketProvider.destroy();
  };

  it('loses no acknowledged keystroke; the change request gets them when the document opens again', async () => {
    const boot = await runCliCaptured(['bootstrap', '--org', 'Acme', '--email', 'ann@acme.io'], {
      QUIRE_URL: url,
      QUIRE_DATA_DIR: dataDir,
    });
    expect(boot.code, boot.stderr).toBe(0);
    const { organization, token, user } = JSON.parse(boot.stdout) as {
      organization: { id: string };
      token: string;
      user: { id: string };
    };
    // The content service learns members from org-admin's events.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await eventually10s(async () => {
        const { rows } = await client.query('select 1 from content.member where user_id = $1', [user.id]);
        expect(rows.length).toBe(1);
      });
    } finally {
      await client.end();
    }
    const api = new GitBookAPI({ authToken: token, endpoint: url });
    const space = (await api.orgs.createSpace(organization.id, { title: 'Crash' })).data;
    const cr = await changeRequestWith(api, space.id, [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Before the crash\n' } },
    ]);
    const base = `${url}/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
    const get = async (path: string) =>
      (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json() as Promise<any>;
    const pageId = (await get('/pages')).pages[0].id as string;
    const name = `spaces/${space.id}/change-requests/${cr.id}/page/${pageId}`;

    const writer = open(token, name);
    await eventually10s(() => expect(paragraphOf(writer.document)).toBe('Before the crash'));
    await eventually10s(() => expect(writer.unsyncedChanges).toBe(0));

    // Keystrokes every 10 ms (each at the start of the paragraph); after 40 of them the instance is killed, the
    // keystrokes going on. Acknowledgements come in order: the first `typed - unsynced` keystrokes are acknowledged.
    const texts: string[] = [];
    let typed = 0;
    const typing = setInterval(() => {
      const text = writer.document.getXmlFragment('default').get(0) as Y.XmlElement;
      (text.get(0) as Y.XmlText).insert(0, `k${typed} `);
      typed++;
      texts.push(paragraphOf(writer.document));
    }, 10);
    await eventually10s(() => expect(typed).toBeGreaterThanOrEqual(40));
    const acknowledged = typed - writer.unsyncedChanges;
    await kill9();
    clearInterval(typing);
    close(writer);
    expect(acknowledged).toBeGreaterThan(0);
    const lastAcknowledged = texts[acknowledged - 1]!;

    await start();
    const reader = open(token, name);
    // Every acknowledged keystroke is there (those sent but not acknowledged may be too: logged, not yet answered).
    await eventually10s(() => expect(paragraphOf(reader.document).endsWith(lastAcknowledged)).toBe(true), 20_000);
    console.info(
      `collab kill -9: ${typed} keystrokes typed, ${acknowledged} acknowledged before SIGKILL, ` +
        `${paragraphOf(reader.document).split('k').length - 1} found after the restart`,
    );
    // The document opened with logged edits no stored state held: they are written into the change request.
    await eventually10s(async () => {
      const page = await get(`/page/${pageId}?format=markdown`);
      expect(page.markdown as string).toContain(lastAcknowledged);
    }, 20_000);
    close(reader);
  }, 300_000);
});
