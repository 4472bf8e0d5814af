import { SchemaMigration } from '@quire/kit';

/**
 * Sign-in by e-mail link, invites to accept, browser sessions and the throttle of sign-in attempts. Every
 * secret (link, invite, session) is stored as its SHA-256 only.
 */
export class SignInMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('sign_in_link')} (
      hash text primary key,
      email text not null,
      next text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz)`);
    this.addSql(`create table ${this.t('invite')} (
      id text primary key,
      hash text not null unique,
      organization_id text not null references ${this.t('organization')} (id)
        on delete cascade deferrable initially deferred,
      user_id text not null references ${this.t('user')} (id) on delete cascade deferrable initially deferred,
      role text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz)`);
    this.addSql(`create table ${this.t('session')} (
      hash text primary key,
      user_id text not null references ${this.t('user')} (id) on delete cascade deferrable initially deferred,
      csrf text not null,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      ended_at timestamptz)`);
    this.addSql(`create index session_by_user on ${this.t('session')} (user_id)`);
    this.addSql(`create table ${this.t('sign_in_attempt')} (
      id text primary key,
      key text not null,
      at timestamptz not null)`);
    this.addSql(`create index sign_in_attempt_key on ${this.t('sign_in_attempt')} (key, at)`);
  }
}
