import { SchemaMigration } from '@quire/kit';

export class IdentityMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('user')} (
      id text primary key,
      email text not null unique,
      display_name text not null,
      photo_url text null,
      created_at timestamptz not null)`);
    this.addSql(`create table ${this.t('api_token')} (
      id text primary key,
      user_id text not null references ${this.t('user')} (id) on delete cascade deferrable initially deferred,
      label text not null,
      hash text not null unique,
      created_at timestamptz not null,
      last_used_at timestamptz null,
      revoked_at timestamptz null)`);
    this.addSql(`create index api_token_user on ${this.t('api_token')} (user_id, created_at, id)`);
    this.addSql(`create table ${this.t('organization')} (
      id text primary key,
      title text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      email_domains jsonb not null default '[]',
      hostname text null unique,
      default_role text null,
      invite_links boolean not null default false,
      type text not null default 'business')`);
    this.addSql(`create table ${this.t('membership')} (
      organization_id text not null references ${this.t('organization')} (id) on delete cascade deferrable initially deferred,
      user_id text not null references ${this.t('user')} (id) on delete cascade deferrable initially deferred,
      role text null check (role in ('admin','create','review','edit','comment','read')),
      joined_at timestamptz not null,
      last_seen_at timestamptz null,
      sso boolean not null default false,
      primary key (organization_id, user_id))`);
    this.addSql(`create index membership_user on ${this.t('membership')} (user_id)`);
  }
}
