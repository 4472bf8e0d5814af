import { SchemaMigration } from '@quire/kit';

/**
 * Live collaboration (issue 41): `collab_document` keeps the Y.js state of each page of a change request edited
 * together, and `collab_update` the updates received since it was stored, beside the GitBook document the change request's revision holds (which stays canonical).
 */
export class CollabDocumentsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('collab_document')} (
      name text primary key,
      space_id text not null,
      change_request_id text not null,
      page_id text not null,
      state bytea not null,
      revision_id text not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index collab_document_change_request on ${this.t('collab_document')} (change_request_id)`);
    // Each update a writer sends, written before the server applies and acknowledges it; folded into the state
    // (and deleted) when the state is stored. A restarted instance replays them: no acknowledged edit is lost.
    this.addSql(`create table ${this.t('collab_update')} (
      name text not null,
      seq bigint generated always as identity,
      update bytea not null,
      primary key (name, seq)
    )`);
  }
}
