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
  type ProcedureInvoker,
  type ServiceDeps,
  type UpgradeHandler,
} from '@quire/kit';
import type { ContentConfig } from '../../env.ts';
import { collabDocumentRepository } from './collab-document.repository.ts';
import { replaceYDocContent, yDocToEditor, type EditorConversion, type GitBookDocument } from './editor-json.ts';
import { collabDocumentName, parseCollabDocumentName, type CollabDocumentIds } from './collab.loader.ts';
import { CollabAccessChecker } from './collab-access.ts';

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
  /** The highest logged update applied to the Y.Doc (stored states drop the logged updates up to it). */
  appliedSeq: number;
  size: number;
}

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
  readonly #seqOf = new WeakMap<Connection, number>();
  readonly #access: CollabAccessChecker;

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
    this.hocuspocus = new Hocuspocus<CollabContext>({
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
      onLoadDocument: async ({ document, documentName, context }) => this.#open(document, documentName, context),
      beforeHandleMessage: async ({ update, documentName, connection, document, context }) =>
        this.#log(update, documentName, connection, document, context),
      afterHandleMessage: async ({ connection, documentName }) => {
        const live = this.#live.get(documentName);
        const seq = this.#seqOf.get(connection);
        if (live && seq !== undefined) live.appliedSeq = Math.max(live.appliedSeq, seq);
        this.#seqOf.delete(connection);
      },
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
   * Opens a document: its stored Y.js state and logged updates, then the change request's page when the state is of
   * an older revision (the page was written through the API meanwhile) or there is none.
   */
  async #open(document: Document, name: string, context: CollabContext): Promise<void> {
    const ids = parseCollabDocumentName(name)!;
    const em = this.deps.orm.em.fork();
    const [{ stored, updates }, head, pageDoc] = await Promise.all([
      collabDocumentRepository.find(em, name),
      this.#access.headOf(context.actor, ids),
      this.#readPage(ids, context.actor),
    ]);
    const local = { source: 'local', skipStoreHooks: true } as const;
    if (stored) Y.applyUpdate(document, stored.state, local);
    for (const update of updates) {
      try {
        Y.applyUpdate(document, update, local);
      } catch (err) {
        this.deps.log.warn({ err, name }, 'collab: a logged update could not be applied');
      }
    }
    const known = JSON.stringify(pageDoc);
    // Logged updates not yet in a stored state win (a crash before the last store): they are written on next store.
    const pending = updates.length > 0 && stored?.revisionId !== head;
    const fresh = !stored || (stored.revisionId !== head && !pending);
    if (fresh) replaceYDocContent(document, this.conversion.documentToEditor(pageDoc), local);
    const live: LiveDocument = {
      ids,
      known: pending ? '' : known,
      written: pending ? '' : this.#converted(document),
      revisionId: head,
      writer: pending ? context.actor : undefined,
      appliedSeq: 0,
      size: Y.encodeStateAsUpdate(document).byteLength,
    };
    this.#live.set(name, live);
    // The seed is stored before any writer's update: the updates logged next are replayed onto it after a crash.
    if (fresh) await this.#saveState(document, name, live);
  }

  async #saveState(document: Document, name: string, live: LiveDocument, upTo = live.appliedSeq): Promise<void> {
    const state = Y.encodeStateAsUpdate(document);
    live.size = state.byteLength;
    const row = { name, ...live.ids };
    await collabDocumentRepository.save(
      this.deps.orm.em.fork(),
      row,
      { state, revisionId: live.revisionId },
      upTo,
      new Date(),
    );
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
    this.#seqOf.set(connection, await collabDocumentRepository.append(this.deps.orm.em.fork(), name, update));
    void document;
  }

  /** Writes the GitBook document into the change request when it changed, then stores the Y.js state. */
  async #store(document: Document, name: string): Promise<void> {
    const live = this.#live.get(name);
    if (!live) return;
    const upTo = live.appliedSeq;
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
      live.revisionId = cr.revision;
      live.known = JSON.stringify(await this.#readPage(ids, live.writer));
      live.written = text;
    }
    await this.#saveState(document, name, live, upTo);
  }

  /**
   * A change request's content changed (an API write, a merge from main, a revert): every open page of it whose
   * GitBook document is not the one the server knows gets that document, replacing the Y.Doc's content.
   */
  async #refreshFromChangeRequest(changeRequestId: string): Promise<void> {
    for (const [name, live] of this.#live) {
      if (live.ids.changeRequestId !== changeRequestId) continue;
      const document = this.hocuspocus.documents.get(name);
      const reader = live.writer ?? this.#access.anyReaderOf(name);
      if (!document || !reader) continue;
      let pageDoc: GitBookDocument;
      try {
        pageDoc = await this.#readPage(live.ids, reader);
      } catch {
        this.hocuspocus.closeConnections(name);
        continue;
      }
      const known = JSON.stringify(pageDoc);
      if (known === live.known) continue;
      live.known = known;
      live.revisionId = await this.#access.headOf(reader, live.ids);
      replaceYDocContent(document, this.conversion.documentToEditor(pageDoc), {
        source: 'local',
        skipStoreHooks: false,
      });
      live.written = this.#converted(document);
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
