import { sql, sqlRun, type EntityManager } from '@quire/kit';

export interface StoredCollabState {
  state: Uint8Array;
  revisionId: string;
}

export interface CollabDocumentRow {
  name: string;
  spaceId: string;
  changeRequestId: string;
  pageId: string;
}

/**
 * Queries of the live documents' Y.js states and update logs. `append` and a lone `find` are single statements on
 * the pool; what changes a document's stored state runs in a transaction holding the document's `lock`, so that the
 * replicas having it open take turns (see CollabServer).
 */
export const collabDocumentRepository = {
  /** Holds the document's lock until the transaction ends (a transaction-scoped advisory lock on its name). */
  async lock(em: EntityManager, name: string): Promise<void> {
    await sql(em, 'select pg_advisory_xact_lock(hashtextextended(?, 0))', [`collab-document:${name}`]);
  },

  /** The stored state (if any) and the updates logged after it, oldest first, with their sequence numbers. */
  async find(
    em: EntityManager,
    name: string,
  ): Promise<{ stored: StoredCollabState | null; updates: Uint8Array[]; seqs: number[] }> {
    const [row] = await sql<{ state: Buffer; revision_id: string }>(
      em,
      'select state, revision_id from :schema.collab_document where name = ?',
      [name],
    );
    const logged = await sql<{ seq: string; update: Buffer }>(
      em,
      'select seq, update from :schema.collab_update where name = ? order by seq',
      [name],
    );
    return {
      stored: row ? { state: new Uint8Array(row.state), revisionId: row.revision_id } : null,
      updates: logged.map((u) => new Uint8Array(u.update)),
      seqs: logged.map((u) => Number(u.seq)),
    };
  },

  /** Logs one update received from a writer (before it is applied); resolves to its sequence number. */
  async append(em: EntityManager, name: string, update: Uint8Array): Promise<number> {
    const [row] = await sql<{ seq: string }>(
      em,
      'insert into :schema.collab_update (name, update) values (?, ?) returning seq',
      [name, Buffer.from(update)],
    );
    return Number(row!.seq);
  },

  /**
   * Stores the state, and drops the logged updates it holds (`dropped`: those read and merged into it), in one
   * statement. The state goes as base64 text (a statement in a transaction is formatted by the ORM, not bound).
   */
  async save(em: EntityManager, doc: CollabDocumentRow, stored: StoredCollabState, dropped: number[], now: Date) {
    await sqlRun(
      em,
      `with dropped as (delete from :schema.collab_update where name = ? and seq = any(?::bigint[]))
       insert into :schema.collab_document (name, space_id, change_request_id, page_id, state, revision_id, updated_at)
       values (?, ?, ?, ?, decode(?, 'base64'), ?, ?)
       on conflict (name) do update set state = excluded.state, revision_id = excluded.revision_id, updated_at = excluded.updated_at`,
      [
        doc.name,
        `{${dropped.join(',')}}`,
        doc.name,
        doc.spaceId,
        doc.changeRequestId,
        doc.pageId,
        Buffer.from(stored.state).toString('base64'),
        stored.revisionId,
        now,
      ],
    );
  },
};
