import { SchemaMigration } from '@quire/kit';

/**
 * The trash of collections (issue 40, the app's Trash screen): a deleted collection as it was (title, description,
 * level, parent, order key, its own grants) and what its delete moved up to the parent (`moved`: each space or
 * sub-collection with its order key before and after), so a restore within 7 days puts it back with its id. The
 * purge job removes the rows older than that.
 */
export class DeletedCollectionsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('deleted_collection')} (
      id text primary key,
      organization_id text not null,
      parent_id text null,
      ord text collate "C" not null,
      title text not null,
      description text null,
      default_level text null,
      created_at timestamptz not null,
      deleted_at timestamptz not null,
      deleted_by text null,
      grants jsonb not null,
      moved jsonb not null)`);
    this.addSql(
      `create index deleted_collection_org_idx on ${this.t('deleted_collection')} (organization_id, deleted_at)`,
    );
  }
}
