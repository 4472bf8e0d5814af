import { randomUUID } from 'node:crypto';
import {
  IncomingMessage,
  isTransactionOrigin,
  MessageReceiver,
  OutgoingMessage,
  type afterLoadDocumentPayload,
  type afterUnloadDocumentPayload,
  type beforeBroadcastStatelessPayload,
  type Document,
  type Extension,
  type Hocuspocus,
  type onAwarenessUpdatePayload,
  type onChangePayload,
  type onConfigurePayload,
  type RedisTransactionOrigin,
} from '@hocuspocus/server';
import type { LiveChannel, Logger, Subscription } from '@quire/kit';
import { parseCollabDocumentName } from './collab.loader.ts';

/**
 * What an update applied from another replica is marked with. Hocuspocus names this origin after its Redis extension;
 * it means "from another instance": such an update is neither stored again here (the replica its writer is connected
 * to logged and stores it) nor published again.
 */
export const FROM_REPLICA: RedisTransactionOrigin = { source: 'redis' };

/** The live subject of a document: `collab.<space>.<change request>.<page>` (ids are NATS-safe tokens). */
export function collabSubjectOf(documentName: string): string | null {
  const ids = parseCollabDocumentName(documentName);
  return ids ? `collab.${ids.spaceId}.${ids.changeRequestId}.${ids.pageId}` : null;
}

/**
 * Fan-out of live documents across content replicas over NATS (issue 41, item 5), as Hocuspocus' Redis extension does
 * over Redis: each replica subscribes to the subject of every document it has open; every update its own writers (or
 * its server) make is published there as a sync `Update` message, and every awareness change (cursors, names) as an
 * awareness message; the other replicas apply them to their copy (which broadcasts them to their own clients). A
 * replica opening a document publishes its state vector (sync step 1) and an awareness query: replicas that have the
 * document open answer with what it lacks (step 2) and ask for what they lack, so a late joiner or a replica that
 * missed messages (NATS core delivers at most once) catches up. Messages carry the sender's id, to skip one's own.
 */
export class CollabFanOut implements Extension {
  /** Before the server's own hooks: a peer's messages are applied to a document as soon as it is loaded. */
  priority = 1000;
  readonly #id = randomUUID();
  readonly #prefix: Uint8Array;
  readonly #channel: LiveChannel;
  readonly #log: Logger;
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #documents = new Map<string, Document>();
  #instance: Hocuspocus | undefined;
  /** Messages published and received (tests, metrics). */
  readonly counts = { published: 0, received: 0, failed: 0 };

  constructor(channel: LiveChannel, log: Logger) {
    this.#channel = channel;
    this.#log = log;
    const id = new TextEncoder().encode(this.#id);
    this.#prefix = new Uint8Array([id.length, ...id]);
  }

  async onConfigure({ instance }: onConfigurePayload): Promise<void> {
    this.#instance = instance;
  }

  #publish(documentName: string, message: Uint8Array): void {
    const subject = collabSubjectOf(documentName);
    if (!subject) return;
    const framed = new Uint8Array(this.#prefix.length + message.length);
    framed.set(this.#prefix, 0);
    framed.set(message, this.#prefix.length);
    try {
      this.#channel.publish(subject, framed);
      this.counts.published++;
    } catch (err) {
      // NATS away (closed connection): the replicas resync with step 1 when a document next loads.
      this.counts.failed++;
      this.#log.warn({ err, documentName }, 'collab: could not publish to the other replicas');
    }
  }

  /** Subscribes to the document's subject, then announces its state and asks who is there. */
  async afterLoadDocument({ documentName, document }: afterLoadDocumentPayload): Promise<void> {
    const subject = collabSubjectOf(documentName);
    if (!subject) return;
    this.#documents.set(documentName, document);
    void this.#subscriptions.get(documentName)?.stop();
    this.#subscriptions.set(
      documentName,
      this.#channel.subscribe(subject, (data) => void this.#receive(documentName, data)),
    );
    this.resync(documentName, document);
    this.#publish(documentName, new OutgoingMessage(documentName).writeQueryAwareness().toUint8Array());
  }

  /** Publishes the document's state vector: replicas having it answer with what it lacks, and ask for what they lack. */
  resync(documentName: string, document: Document): void {
    this.#publish(
      documentName,
      new OutgoingMessage(documentName).createSyncMessage().writeFirstSyncStepFor(document).toUint8Array(),
    );
  }

  /** An update made here (a writer connected here, or the server itself) goes to the other replicas. */
  async onChange({ documentName, update, transactionOrigin }: onChangePayload): Promise<void> {
    if (isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'redis') return;
    if (!this.#documents.has(documentName)) return;
    this.#publish(
      documentName,
      new OutgoingMessage(documentName).createSyncMessage().writeUpdate(update).toUint8Array(),
    );
  }

  /** Cursors, selections and names of the writers connected here go to the other replicas. */
  async onAwarenessUpdate({
    documentName,
    awareness,
    added,
    updated,
    removed,
    transactionOrigin,
  }: onAwarenessUpdatePayload): Promise<void> {
    if (isTransactionOrigin(transactionOrigin) && transactionOrigin.source === 'redis') return;
    if (!this.#documents.has(documentName)) return;
    const changed = [...added, ...updated, ...removed];
    if (!changed.length) return;
    this.#publish(
      documentName,
      new OutgoingMessage(documentName).createAwarenessUpdateMessage(awareness, changed).toUint8Array(),
    );
  }

  async beforeBroadcastStateless({ documentName, payload }: beforeBroadcastStatelessPayload): Promise<void> {
    this.#publish(documentName, new OutgoingMessage(documentName).writeBroadcastStateless(payload).toUint8Array());
  }

  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload): Promise<void> {
    if (this.#instance?.documents.has(documentName)) return; // loaded again meanwhile (a quick reconnect)
    this.#documents.delete(documentName);
    const subscription = this.#subscriptions.get(documentName);
    this.#subscriptions.delete(documentName);
    await subscription?.stop();
  }

  async onDestroy(): Promise<void> {
    await this.stop();
  }

  /** Stops every subscription (the service closing). */
  async stop(): Promise<void> {
    const subscriptions = [...this.#subscriptions.values()];
    this.#subscriptions.clear();
    this.#documents.clear();
    await Promise.all(subscriptions.map((s) => s.stop()));
  }

  /** A message of another replica: applied to the open document like a client's, its replies published back. */
  async #receive(documentName: string, data: Uint8Array): Promise<void> {
    const length = data[0] ?? 0;
    if (data.length < length + 1) return;
    const sender = new TextDecoder().decode(data.subarray(1, length + 1));
    if (sender === this.#id) return;
    const document = this.#documents.get(documentName);
    if (!document) return;
    this.counts.received++;
    try {
      const message = new IncomingMessage(data.subarray(length + 1));
      if (message.readVarString() !== documentName) return;
      message.writeVarString(documentName);
      await new MessageReceiver(message, FROM_REPLICA).apply(document, undefined, (reply) =>
        this.#publish(documentName, reply),
      );
    } catch (err) {
      this.counts.failed++;
      this.#log.warn({ err, documentName }, 'collab: a message from another replica could not be applied');
    }
  }
}
