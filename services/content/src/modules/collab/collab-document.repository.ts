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

/** Queries of the live documents' Y.js states and update logs: single statements on the pool (no transaction). */
export const collabDocumentRepository = {
  /** The stored state (if any) and the updates logged after it, oldest first. */
  async find(em: EntityManager, name: string): Promise<{ stored: StoredCollabState | null; updates: Uint8Array[] }> {
    const [row] = await sql<{ state: Buffer; revision_id: string }>(
      em,
      'select state, revision_id from :schema.collab_document where name = ?',
      [name],
    );
    const logged = await sql<{ update: Buffer }>(
      em,
      'select update from :schema.collab_update where name = ? order by seq',
      [name],
    );
    return {
      stored: row ? { state: new Uint8Array(row.state), revisionId: row.revision_id } : null,
      updates: logged.map((u) => new Uint8Array(u.update)),
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

  /** Stores the state, and drops the logged updates it holds (those up to `upTo`), in one statement. */
  async save(em: EntityManager, doc: CollabDocumentRow, stored: StoredCollabState, upTo: number, now: Date) {
    await sqlRun(
      em,
      `with dropped as (delete from :schema.collab_update where name = ? and seq <= ?)
       insert into :schema.collab_document (name, space_id, change_request_id, page_id, state, revision_id, updated_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (name) do update set state = excluded.state, revision_id = excluded.revision_id, updated_at = excluded.updated_at`,
      [
        doc.name,
        upTo,
        doc.name,
        doc.spaceId,
        doc.changeRequestId,
        doc.pageId,
        Buffer.from(stored.state),
        stored.revisionId,
        now,
      ],
    );
  },
};
