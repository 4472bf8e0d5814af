import { SchemaMigration } from '@quire/kit';

/** Installations of an integration on spaces of its installation's organization (GitBook's space installations). */
export class SpaceInstallationsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('integration_space_installation')} (
      id text primary key,
      installation_id text not null references ${this.t('integration_installation')} (id) on delete cascade deferrable initially deferred,
      space_id text not null,
      status text not null,
      configuration jsonb not null default '{}',
      external_ids jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (installation_id, space_id))`);
    this.addSql(
      `create index integration_space_installation_space on ${this.t('integration_space_installation')} (space_id)`,
    );
  }
}
