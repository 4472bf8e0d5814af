import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hocuspocus, type Connection, type Document } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import { WebSocketServer, type WebSocket } from 'ws';
import * as Y from 'yjs';
import { ops, type Actor } from '@quire/contracts';
import {
  ACTOR_HEADER,
  ActorSigner,
  InProcessTransport,
  ServiceClient,
  type EntityManager,
  type ProcedureInvoker,
  type ServiceDeps,
  type UpgradeHandler,
} from '@quire/kit';
import type { ContentConfig } from '../../env.ts';
import { collabStateStorer, collabUpdateLogger } from '../../commands/collab-document-writer.ts';
import { collabDocumentRepository } from './collab-document.repository.ts';
import { replaceYDocContent, yDocToEditor, type EditorConversion, type GitBookDocument } from './editor-json.ts';
import { collabDocumentName, parseCollabDocumentName, type CollabDocumentIds } from './collab.loader.ts';
import { CollabAccessChecker } from './collab-access.ts';
import { CollabFanOut } from './collab-fan-out.ts';

/** The path of the WebSocket endpoint, on the content service and (forwarded) on the gateway. */
export const COLLAB_PATH = '/v1/collab';

export interface CollabLimits {
  /** The largest WebSocket message (a larger one closes that connection, code 1009). */
  maxMessageBytes: number;
  /** The largest Y.js state of a document: an update past it closes the writer's connection (4413). */
  maxDocumentBytes: number;
  /** Open sockets of one member on one instance (one more is refused with 429). */
  maxSocketsPerMember: number;
  /** Quiet time after a change before the GitBook document is written (and at most this long while typing). */
  debounceMs: number;
  maxDebounceMs: number;
}

export const COLLAB_LIMITS: CollabLimits = {
  maxMessageBytes: 1024 * 1024,
  maxDocumentBytes: 8 * 1024 * 1024,
  maxSocketsPerMember: 20,
  debounceMs: 1_500,
  maxDebounceMs: 10_000,
};

type UserActor = Extract<Actor, { kind: 'user' }>;
/** What a connection carries: the member it authenticated as (the gateway's signed actor). */
export interface CollabContext {
  actor: UserActor;
}

/** What the server keeps of an open document beside its Y.Doc. */
interface LiveDocument {
  ids: CollabDocumentIds;
  /** The page's GitBook document as last read from, or written into, the change request (JSON). */
  known: string;
  revisionId: string;
  /** The last member whose update changed it: the GitBook document is written as them. */
  writer: UserActor | undefined;
  /** What the conversion made of the Y.Doc when it last matched `known` (JSON): unchanged since, nothing to write. */
  written: string;
  size: number;
  /** Opened with logged updates no stored state held (a crash): stored (and written) as soon as it is loaded. */
  recovered: boolean;
}

/** How many documents of one instance may hold their lock at once (each holds a pooled connection meanwhile). */
const LOCKED_AT_ONCE = 3;

/** `Sync` and `SyncReply` messages of Hocuspocus' protocol carrying a Y.js update (sync step 2 or update). */
function yUpdateOf(message: Uint8Array): Uint8Array | null {
  const decoder = decoding.createDecoder(message);
  decoding.readVarString(decoder);
  const type = decoding.readVarUint(decoder);
  if (type !== 0 && type !== 4) return null;
  const step = decoding.readVarUint(decoder);
  return step === 1 || step === 2 ? decoding.readVarUint8Array(decoder) : null;
}

/** Closes the socket a refused message came on (its other documents too: the client is broken) and stops handling it. */
function refuseMessage(connection: Connection, code: number, reason: string): never {
  connection.webSocket.close(code, reason);
  throw Object.assign(new Error(reason), { code, reason });
}

/** Answers an upgrade it refuses with a plain HTTP status and `{error}` body, then ends the socket. */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${code}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * The live collaboration server (issue 41): Hocuspocus on the content service's HTTP server, one Y.Doc per page of a
 * change request. The GitBook document stays canonical: a document opens from the change request's page (or from its
 * stored Y.js state, when that state is of the change request's current revision), every writer's update is logged
 * before it is applied (acknowledged edits survive a crash), and the document is written into the change request
 * (`updateChangeRequestContent`, as its last writer) after a quiet time and when its last writer leaves.
 */
export class CollabServer implements UpgradeHandler {
  readonly hocuspocus: Hocuspocus<CollabContext>;
  readonly #wss: WebSocketServer;
  readonly #signer: ActorSigner;
  readonly #self: ServiceClient;
  readonly #live = new Map<string, LiveDocument>();
  readonly #sockets = new Map<string, Set<WebSocket>>();
  readonly #access: CollabAccessChecker;
  /** Fan-out to the other content replicas over NATS (none on the in-process bus: one process, no replica). */
  readonly fanOut: CollabFanOut | undefined;
  /** Turns to hold a document's lock (LOCKED_AT_ONCE at most). */
  readonly #turns: (() => void)[] = [];
  #locked = 0;

  readonly deps: ServiceDeps<ContentConfig>;
  readonly conversion: EditorConversion;
  readonly limits: CollabLimits;

  constructor(
    deps: ServiceDeps<ContentConfig>,
    invoker: ProcedureInvoker,
    conversion: EditorConversion,
    limits: CollabLimits = COLLAB_LIMITS,
  ) {
    this.deps = deps;
    this.conversion = conversion;
    this.limits = limits;
    this.#signer = new ActorSigner(deps.config.QUIRE_INTERNAL_SECRET);
    this.#self = new ServiceClient('content', new InProcessTransport(invoker));
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
    this.#access = new CollabAccessChecker(deps, invoker);
    this.fanOut = deps.bus.live ? new CollabFanOut(deps.bus.live, deps.log) : undefined;
    this.hocuspocus = new Hocuspocus<CollabContext>({
      extensions: this.fanOut ? [this.fanOut] : [],
      quiet: true,
      debounce: limits.debounceMs,
      maxDebounce: limits.maxDebounceMs,
      unloadImmediately: true,
      onAuthenticate: async ({ documentName, context, connectionConfig }) => {
        const ids = parseCollabDocumentName(documentName);
        if (!ids) throw Object.assign(new Error('not a document'), { reason: 'not-found' });
        const mode = await this.#access.modeOf(context.actor, ids);
        if (!mode) throw Object.assign(new Error('forbidden'), { reason: 'permission-denied' });
        connectionConfig.readOnly = mode === 'read';
      },
      connected: async ({ connection, documentName, context }) => this.#access.track(connection, documentName, context),
      onLoadDocument: async ({ document, documentName, context, connectionConfig }) =>
        this.#open(document, documentName, context, !connectionConfig.readOnly),
      afterLoadDocument: async ({ document, documentName, context }) => {
        if (!this.#live.get(documentName)?.recovered) return;
        // Edits logged before a crash and never stored: into the change request now, not at the next keystroke.
        this.hocuspocus.storeDocumentHooks(
          document,
          {
            instance: this.hocuspocus,
            clientsCount: document.getConnectionsCount(),
            document,
            documentName,
            lastContext: context,
            lastTransactionOrigin: { source: 'local' },
          },
          true,
        );
      },
      beforeHandleMessage: async ({ update, documentName, connection, document, context }) =>
        this.#log(update, documentName, connection, document, context),
      onStoreDocument: async ({ document, documentName }) => this.#store(document, documentName),
      afterUnloadDocument: async ({ documentName }) => void this.#live.delete(documentName),
    });
  }

  #started: Promise<void> | undefined;

  /** Starts listening for the events that change access or a page under an open document. */
  start(): Promise<void> {
    this.#started ??= this.#access.listen((changeRequest) => this.#refreshFromChangeRequest(changeRequest));
    return this.#started;
  }

  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    if (path !== COLLAB_PATH) return refuse(socket, 404, 'not_found', 'No WebSocket endpoint here');
    void this.#accept(req, socket, head).catch((err: unknown) => {
      this.deps.log.error({ err }, 'collab upgrade failed');
      socket.destroy();
    });
  }

  async #accept(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const header = req.headers[ACTOR_HEADER];
    const actor = await this.#signer.verify(typeof header === 'string' ? header : undefined);
    if (actor?.kind !== 'user') return refuse(socket, 401, 'unauthenticated', 'Live editing needs a signed-in member');
    const open = this.#sockets.get(actor.userId) ?? new Set<WebSocket>();
    if (open.size >= this.limits.maxSocketsPerMember)
      return refuse(socket, 429, 'rate_limited', 'Too many live editing connections for this member');
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws);
      this.#sockets.set(actor.userId, open);
      const request = new Request(`http://content${req.url}`, {
        headers: { 'user-agent': String(req.headers['user-agent'] ?? '') },
      });
      const client = this.hocuspocus.handleConnection(ws, request, { actor });
      ws.on('message', (data: Buffer) => client.handleMessage(new Uint8Array(data)));
      ws.on('error', () => ws.terminate());
      ws.on('close', (code, reason) => {
        open.delete(ws);
        if (!open.size) this.#sockets.delete(actor.userId);
        client.handleClose({ code, reason: reason.toString() });
      });
    });
  }

  /** A signed call context for `actor` (content's own procedures, in process). */
  async #as(actor: UserActor) {
    return { actorHeader: (await this.#signer.sign(actor)).header };
  }

  async #readPage(ids: CollabDocumentIds, actor: UserActor): Promise<GitBookDocument> {
    const page = await this.#self.call(
      ops.getPageInChangeRequestById,
      { spaceId: ids.spaceId, changeRequestId: ids.changeRequestId, pageId: ids.pageId, format: 'document' },
      await this.#as(actor),
    );
    if (!('document' in page) || !page.document) throw new Error('The page has no document');
    return page.document;
  }

  /**
   * Runs `fn` in a transaction holding the document's lock: what reads and writes its stored state (open, store, an
   * API write reaching it) takes turns across the replicas having it open. At most LOCKED_AT_ONCE at a time here,
   * since each holds a pooled connection while it calls content's procedures on others.
   */
  async #withLock<T>(name: string, fn: (em: EntityManager) => Promise<T>): Promise<T> {
    if (this.#locked >= LOCKED_AT_ONCE)
      await new Promise<void>((resolve) => {
        this.#turns.push(resolve);
      });
    else this.#locked++;
    try {
      return await this.deps.orm.em.fork().transactional(async (em) => {
        await collabDocumentRepository.lock(em, name);
        return fn(em);
      });
    } finally {
      const next = this.#turns.shift();
      if (next) next();
      else this.#locked--;
    }
  }

  /**
   * Opens a document: its stored Y.js state and logged updates, then the change request's page when the state is of
   * an older revision (the page was written through the API meanwhile) or there is none. Under the document's lock:
   * two replicas opening a new document at once seed it once.
   */
  async #open(document: Document, name: string, context: CollabContext, canWrite: boolean): Promise<void> {
    const ids = parseCollabDocumentName(name)!;
    await this.#withLock(name, async (em) => {
      const [{ stored, updates }, head, pageDoc] = await Promise.all([
        collabDocumentRepository.find(em, name),
        this.#access.headOf(context.actor, ids),
        this.#readPage(ids, context.actor),
      ]);
      const local = { source: 'local', skipStoreHooks: true } as const;
      if (stored) Y.applyUpdate(document, stored.state, local);
      // What the stored state makes of the page (it was stored with the change request's document it matched).
      const storedText = stored ? this.#converted(document) : '';
      this.#applyLogged(document, name, updates, local);
      const known = JSON.stringify(pageDoc);
      // Logged updates not yet in a stored state win (a crash before the last store): they are written on next store.
      const pending = updates.length > 0 && stored?.revisionId !== head;
      const fresh = !stored || (stored.revisionId !== head && !pending);
      if (fresh) replaceYDocContent(document, this.conversion.documentToEditor(pageDoc), local);
      // Logged updates (a crash, or writers on another replica) are stored, and written, once the document is loaded.
      const recovered = updates.length > 0 && canWrite;
      const live: LiveDocument = {
        ids,
        known: pending ? '' : known,
        written: pending ? '' : fresh ? this.#converted(document) : storedText,
        revisionId: head,
        writer: recovered ? context.actor : undefined,
        size: Y.encodeStateAsUpdate(document).byteLength,
        recovered,
      };
      this.#live.set(name, live);
      // The seed is stored before any writer's update: the updates logged next are replayed onto it after a crash.
      if (fresh) await this.#saveState(em, document, name, live, head, []);
    });
  }

  #applyLogged(document: Y.Doc, name: string, updates: Uint8Array[], origin: unknown): void {
    for (const update of updates) {
      try {
        Y.applyUpdate(document, update, origin);
      } catch (err) {
        this.deps.log.warn({ err, name }, 'collab: a logged update could not be applied');
      }
    }
  }

  /**
   * Under the document's lock: what other replicas stored and logged (their writers' updates, which NATS may not have
   * brought yet) is merged into the open document, so the state stored next holds everything acknowledged anywhere.
   * What it adds (a lost replica's last updates) goes to this replica's clients and, published, to the other replicas.
   */
  async #catchUp(em: EntityManager, document: Document, name: string) {
    const found = await collabDocumentRepository.find(em, name);
    const merged = { source: 'local', skipStoreHooks: true } as const;
    if (found.stored) Y.applyUpdate(document, found.stored.state, merged);
    this.#applyLogged(document, name, found.updates, merged);
    return found;
  }

  /** Stores the Y.js state as of `revisionId` and drops the logged updates merged into it (`dropped`). */
  async #saveState(
    em: EntityManager,
    document: Document,
    name: string,
    live: LiveDocument,
    revisionId: string,
    dropped: number[],
  ) {
    const state = Y.encodeStateAsUpdate(document);
    live.size = state.byteLength;
    const row = { name, ...live.ids };
    await collabStateStorer(em, { document: row, stored: { state, revisionId }, dropped });
  }

  /** The GitBook document (JSON) the conversion makes of the Y.Doc's content. */
  #converted(document: Y.Doc): string {
    return JSON.stringify(this.conversion.editorToDocument(yDocToEditor(document)));
  }

  /** Logs a writer's update before it is applied; refuses one past the document size limit (closing that connection). */
  async #log(message: Uint8Array, name: string, connection: Connection, document: Document, context: CollabContext) {
    if (connection.readOnly) return;
    const live = this.#live.get(name);
    const update = yUpdateOf(message);
    if (!live || !update || update.byteLength <= 2) return;
    try {
      // Parsed before it is logged: a malformed update closes its own socket and never reaches the log.
      Y.decodeUpdate(update);
    } catch {
      refuseMessage(connection, 4400, 'malformed-update');
    }
    if (live.size + update.byteLength > this.limits.maxDocumentBytes)
      refuseMessage(connection, 4413, 'document-too-large');
    live.size += update.byteLength;
    live.writer = context.actor;
    await collabUpdateLogger(this.deps.orm.em.fork(), { name, update });
    void document;
  }

  /**
   * Writes the GitBook document into the change request when it changed, then stores the Y.js state. Under the
   * document's lock, after merging what other replicas stored and logged: the change request gets everything
   * acknowledged on any replica, and the state stored holds what the state it replaces held.
   */
  async #store(document: Document, name: string): Promise<void> {
    const live = this.#live.get(name);
    if (!live) return;
    await this.#withLock(name, async (em) => {
      const { stored, seqs } = await this.#catchUp(em, document, name);
      // The stored revision stays (another replica may have written a newer one than this one knows) unless this
      // store writes one.
      let revisionId = stored?.revisionId ?? live.revisionId;
      const written = this.conversion.editorToDocument(yDocToEditor(document));
      const text = JSON.stringify(written);
      if (live.writer && text !== live.written && text !== live.known) {
        const { ids } = live;
        const cr = await this.#self.call(
          ops.updateChangeRequestContent,
          {
            spaceId: ids.spaceId,
            changeRequestId: ids.changeRequestId,
            changes: [{ operation: 'update_page', page: ids.pageId, document: { document: written } }],
          },
          await this.#as(live.writer),
        );
        live.revisionId = revisionId = cr.revision;
        live.known = JSON.stringify(await this.#readPage(ids, live.writer));
        live.written = text;
      }
      // Stored with the revision just written (before the lock is released): a replica hearing of that revision
      // finds it stored and knows it for this document's own, not an API write to apply.
      await this.#saveState(em, document, name, live, revisionId, seqs);
      live.recovered = false;
    });
  }

  /**
   * A change request's content changed (an API write, a merge from main, a revert, or a replica storing a live
   * document): every open page of it whose GitBook document is not the one the server knows gets that document,
   * replacing the Y.Doc's content. Under the document's lock: a revision some replica stored a state for is one the
   * documents already hold (nothing to replace), and of several replicas hearing of an API write, the first replaces
   * the content and stores the state with that revision, the others find it stored (no content twice). A replica
   * that does not know the page of the last stored revision (another replica wrote it, and this one has not heard of
   * it yet) leaves the newer revision to the replicas that do: it cannot tell an API write from that replica's own.
   */
  async #refreshFromChangeRequest(changeRequestId: string): Promise<void> {
    for (const [name, live] of this.#live) {
      if (live.ids.changeRequestId !== changeRequestId) continue;
      const document = this.hocuspocus.documents.get(name);
      const reader = live.writer ?? this.#access.anyReaderOf(name);
      if (!document || !reader) continue;
      try {
        await this.#withLock(name, async (em) => {
          const { stored, seqs } = await this.#catchUp(em, document, name);
          const [head, pageDoc] = await Promise.all([
            this.#access.headOf(reader, live.ids),
            this.#readPage(live.ids, reader),
          ]);
          if (stored?.revisionId === head) {
            // Written by a replica (this one or another) and stored with its state: the documents hold it already.
            if (live.revisionId !== head) {
              live.revisionId = head;
              live.known = JSON.stringify(pageDoc);
            }
            return;
          }
          if (stored && stored.revisionId !== live.revisionId) return;
          const known = JSON.stringify(pageDoc);
          if (known !== live.known) {
            replaceYDocContent(document, this.conversion.documentToEditor(pageDoc), {
              source: 'local',
              skipStoreHooks: true,
            });
            live.written = this.#converted(document);
          }
          live.known = known;
          live.revisionId = head;
          await this.#saveState(em, document, name, live, head, seqs);
        });
      } catch (err) {
        this.deps.log.warn({ err, name }, 'collab: the change request could not be read; closing its connections');
        this.hocuspocus.closeConnections(name);
      }
    }
  }

  async close(): Promise<void> {
    await this.#started?.catch(() => {});
    await this.#access.stop();
    // Every open document is stored now (the last writers' edits reach the change request), then sockets close.
    for (const [name, document] of this.hocuspocus.documents) {
      await this.#store(document, name).catch((err: unknown) =>
        this.deps.log.error({ err, name }, 'collab store failed'),
      );
      this.#live.delete(name);
    }
    this.hocuspocus.closeConnections();
    for (const ws of this.#wss.clients) ws.terminate();
    this.#wss.close();
    await this.fanOut?.stop();
  }
}

export { collabDocumentName };

/** The content service's `upgrades`: the collaboration server, with the editor's document conversion. */
export const collabUpgrades =
  (conversion: EditorConversion, limits?: CollabLimits) =>
  (deps: ServiceDeps<ContentConfig>, invoker: ProcedureInvoker): UpgradeHandler => {
    const server = new CollabServer(deps, invoker, conversion, limits);
    void server.start().catch((err: unknown) => deps.log.error({ err }, 'collab listeners failed'));
    return server;
  };
