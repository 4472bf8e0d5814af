import { SchemaMigration } from '@quire/kit';

/**
 * Who moved a space to the trash (issue 40, the app's Trash screen): the user's id, null for a space live or deleted
 * before this column (who deleted it is not known).
 */
export class SpaceDeletedByMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('space')} add column deleted_by text`);
  }
}
