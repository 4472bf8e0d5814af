import { SchemaMigration } from '@quire/kit';

/**
 * Single sign-on: OpenID Connect providers of an organization (client secret sealed with the kit's SecretBox),
 * the sign-in flows in progress (OIDC state, nonce and PKCE verifier; SAML request id), the SAML assertions
 * already consumed (replay protection until they expire) and the SSO identities linked to users.
 */
export class SsoSignInMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('oidc_provider')} (
      id text primary key,
      organization_id text not null references ${this.t('organization')} (id) on delete cascade deferrable initially deferred,
      label text not null,
      issuer text not null,
      client_id text not null,
      client_secret text null,
      scopes text not null,
      default_team_id text null references ${this.t('team')} (id) on delete set null deferrable initially deferred,
      default_role text null check (default_role in ('admin','create','review','edit','comment','read')),
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
    this.addSql(
      `create index oidc_provider_organization on ${this.t('oidc_provider')} (organization_id, created_at, id)`,
    );
    this.addSql(`create table ${this.t('sso_flow')} (
      hash text primary key,
      kind text not null check (kind in ('oidc','saml')),
      provider_id text not null,
      next text not null,
      code_verifier text null,
      nonce text null,
      request_id text null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz null)`);
    this.addSql(`create index sso_flow_expiry on ${this.t('sso_flow')} (expires_at)`);
    this.addSql(`create table ${this.t('saml_assertion')} (
      id text primary key,
      expires_at timestamptz not null)`);
    this.addSql(`create table ${this.t('sso_identity')} (
      provider_id text not null,
      subject text not null,
      user_id text not null references ${this.t('user')} (id) on delete cascade deferrable initially deferred,
      created_at timestamptz not null,
      primary key (provider_id, subject))`);
  }
}
