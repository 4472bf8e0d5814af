import { SchemaMigration } from '@quire/kit';

/**
 * Identity linking only by an account's owner (docs/sign-in.md): the links an identity provider asked for and the
 * signed-in owner has to confirm (`sso_link`), the e-mail domains an organization proved it owns by a DNS TXT
 * record (`organization_domain`), and invitations that an existing account accepts before it joins
 * (`invite.joins`: the membership is made on acceptance, not by the invitation).
 */
export class SsoLinksAndDomainsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('sso_link')} (
      hash text primary key,
      kind text not null check (kind in ('oidc','saml')),
      provider_id text not null,
      subject text not null,
      user_id text not null references ${this.t('user')} (id) on delete cascade deferrable initially deferred,
      name text null,
      next text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz null)`);
    this.addSql(`create index sso_link_expiry on ${this.t('sso_link')} (expires_at)`);
    this.addSql(`create table ${this.t('organization_domain')} (
      organization_id text not null references ${this.t('organization')} (id)
        on delete cascade deferrable initially deferred,
      domain text not null,
      token text not null,
      created_at timestamptz not null,
      checked_at timestamptz null,
      verified_at timestamptz null,
      primary key (organization_id, domain))`);
    this.addSql(`create index organization_domain_by_domain on ${this.t('organization_domain')} (domain)`);
    this.addSql(`alter table ${this.t('invite')} add column joins boolean not null default false`);
    // The account page lists an account's open invitations.
    this.addSql(`create index invite_open_by_user on ${this.t('invite')} (user_id) where used_at is null`);
  }
}
