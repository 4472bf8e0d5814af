import type { Connection } from '@hocuspocus/server';
import { ACTOR_EVICTING_EVENTS, Events, staleActorsOf, type Actor, type EventEnvelope } from '@quire/contracts';
import { ActorSigner, DomainError, type ProcedureInvoker, type ServiceDeps, type Subscription } from '@quire/kit';
import type { ContentConfig } from '../../env.ts';
import type { ContentContext } from '../../trpc.ts';
import {
  loadCollabAccess,
  parseCollabDocumentName,
  type CollabAccess,
  type CollabDocumentIds,
} from './collab.loader.ts';

type UserActor = Extract<Actor, { kind: 'user' }>;

interface Tracked {
  connection: Connection;
  name: string;
  ids: CollabDocumentIds;
  actor: UserActor;
  mode: 'write' | 'read';
}

/** The close code of a connection whose member's access changed: the provider reconnects and is authorized anew. */
export const ACCESS_CHANGED = { code: 4403, reason: 'access-changed' };

/** The close code of a connection whose sign-in session ended: its reconnection is refused (401) like any request of it. */
export const SESSION_ENDED = { code: 4401, reason: 'session-ended' };

/** Events after which the access of open connections is checked again (besides those making actors stale). */
const RECHECKED = [
  Events.permissionsUpdated,
  Events.spaceUpdated,
  Events.spaceDeleted,
  Events.changeRequestStatusChanged,
];

/**
 * Who may open which live document, asked of content's policy with the member's signed actor (`loadCollabAccess`),
 * and the open connections kept so that a change of access closes them: a member whose actor is made stale (removed,
 * role changed, out of a team) is disconnected, and the provider's reconnection goes through the gateway again with
 * the fresh actor; a change of a space's permissions, state or a change request's status checks every open connection
 * again and closes those whose access is not what it was; a sign-in session that ends closes the sockets opened with it.
 */
export class CollabAccessChecker {
  readonly deps: ServiceDeps<ContentConfig>;
  readonly invoker: ProcedureInvoker;
  readonly #signer: ActorSigner;
  readonly #open = new Set<Tracked>();
  #subscription: Subscription | undefined;

  constructor(deps: ServiceDeps<ContentConfig>, invoker: ProcedureInvoker) {
    this.deps = deps;
    this.invoker = invoker;
    this.#signer = new ActorSigner(deps.config.QUIRE_INTERNAL_SECRET);
  }

  /** Runs `fn` with a procedure context of `actor` (its own EntityManager), as a call of content would. */
  async #as<T>(actor: UserActor, path: string, fn: (ctx: ContentContext) => Promise<T>): Promise<T> {
    const ctx = (await this.invoker.contextOf(
      { actorHeader: (await this.#signer.sign(actor)).header },
      this.deps.log,
    )) as ContentContext;
    let error: unknown;
    try {
      return await fn(ctx);
    } catch (err) {
      error = err;
      throw err;
    } finally {
      this.invoker.finish(ctx, path, error);
    }
  }

  async #access(actor: UserActor, ids: CollabDocumentIds): Promise<CollabAccess | null> {
    try {
      return await this.#as(actor, 'collab.connect', (ctx) => loadCollabAccess(ctx, ids));
    } catch (err) {
      if (err instanceof DomainError) return null;
      throw err;
    }
  }

  /** `write`, `read`, or null when the member may not see the change request. */
  async modeOf(actor: UserActor, ids: CollabDocumentIds): Promise<'write' | 'read' | null> {
    return (await this.#access(actor, ids))?.mode ?? null;
  }

  /** The change request's current revision. */
  async headOf(actor: UserActor, ids: CollabDocumentIds): Promise<string> {
    const access = await this.#access(actor, ids);
    if (!access) throw new DomainError('not_found', 'Change request not found');
    return access.changeRequest.revisionId;
  }

  async track(connection: Connection, name: string, context: { actor: UserActor }): Promise<void> {
    const ids = parseCollabDocumentName(name);
    if (!ids) return;
    const entry: Tracked = {
      connection,
      name,
      ids,
      actor: context.actor,
      mode: connection.readOnly ? 'read' : 'write',
    };
    this.#open.add(entry);
    connection.onClose(() => this.#open.delete(entry));
  }

  /** A member with an open connection on the document, to read its page as. */
  anyReaderOf(name: string): UserActor | undefined {
    for (const t of this.#open) if (t.name === name) return t.actor;
    return undefined;
  }

  async listen(onContentChanged: (changeRequestId: string) => Promise<void>): Promise<void> {
    const events = [...ACTOR_EVICTING_EVENTS, ...RECHECKED, Events.changeRequestUpdated, Events.sessionEnded];
    this.#subscription = await this.deps.bus.listen(
      events.map((e) => e.subject),
      async (envelope) => this.#onEvent(envelope, onContentChanged),
    );
  }

  async #onEvent(envelope: EventEnvelope, onContentChanged: (changeRequestId: string) => Promise<void>) {
    if (envelope.type === Events.changeRequestUpdated.type) {
      const data = Events.changeRequestUpdated.data.parse(envelope.data);
      if (data.fields.includes('content')) await onContentChanged(data.changeRequest);
      return;
    }
    if (envelope.type === Events.sessionEnded.type) {
      // A signed-out browser's sockets close; the member's other sessions and API tokens keep theirs.
      const { user, sessions } = Events.sessionEnded.data.parse(envelope.data);
      for (const t of [...this.#open])
        if (t.actor.userId === user && t.actor.sessionId !== undefined && sessions.includes(t.actor.sessionId))
          t.connection.webSocket.close(SESSION_ENDED.code, SESSION_ENDED.reason);
      return;
    }
    const stale = staleActorsOf(envelope);
    for (const t of [...this.#open]) {
      const member = t.actor.memberships.some((m) => stale.organizations.includes(m.organization));
      if (stale.users.includes(t.actor.userId) || member)
        t.connection.webSocket.close(ACCESS_CHANGED.code, ACCESS_CHANGED.reason);
    }
    if (RECHECKED.some((e) => e.type === envelope.type)) await this.recheck();
  }

  /** Checks every open connection again; closes those whose access changed. */
  async recheck(): Promise<void> {
    for (const t of [...this.#open]) {
      const mode = await this.modeOf(t.actor, t.ids).catch(() => null);
      if (mode !== t.mode) t.connection.webSocket.close(ACCESS_CHANGED.code, ACCESS_CHANGED.reason);
    }
  }

  async stop(): Promise<void> {
    await this.#subscription?.stop();
  }
}
