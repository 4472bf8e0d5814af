import { SchemaMigration } from '@quire/kit';

/** The projection follows deletes, restores and transfers: `deleted_at`, and `event_at` to refuse late events. */
export class ContentSpaceLifecycleMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('content_space')} add column deleted_at timestamptz null`);
    this.addSql(`alter table ${this.t('content_space')} add column event_at timestamptz null`);
  }
}
