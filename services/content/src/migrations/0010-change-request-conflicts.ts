import { SchemaMigration } from '@quire/kit';

/**
 * The pages of a change request in conflict with the space's content (ids, in reading order): those a refused
 * merge found, then those holding conflict blocks after an update. Empty: not conflicting.
 */
export class ChangeRequestConflictsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('change_request')} add column conflicts jsonb not null default '[]'`);
  }
}
