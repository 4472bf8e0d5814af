import { SchemaMigration } from '@quire/kit';

export class ContentSpaceMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('content_space')} (
      id text primary key,
      organization_id text not null,
      title text not null,
      created_at timestamptz not null)`);
    this.addSql(`create index content_space_org on ${this.t('content_space')} (organization_id)`);
  }
}
