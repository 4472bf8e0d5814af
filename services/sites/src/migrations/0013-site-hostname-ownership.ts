import { SchemaMigration } from '@quire/kit';

/**
 * Custom hostnames serve only once a DNS TXT record proves the organization controls them (issue 36). A claim is
 * no longer unique: only a verified hostname is (so an unproven claim never blocks the organization that proves
 * it). Hostnames set before this migration start unverified: they serve again once their TXT record is found.
 */
export class SiteHostnameOwnershipMigration extends SchemaMigration {
  override up(): void {
    const site = this.t('site');
    this.addSql(`alter table ${site} add column hostname_token text null`);
    this.addSql(`alter table ${site} add column hostname_verified boolean not null default false`);
    this.addSql(`alter table ${site} add column hostname_status text null`);
    this.addSql(`alter table ${site} add column hostname_checked_at timestamptz null`);
    this.addSql(
      `update ${site} set hostname_token = replace(gen_random_uuid()::text, '-', '') where hostname is not null`,
    );
    this.addSql(`drop index if exists ${this.t('site_hostname')}`);
    this.addSql(`create index site_hostname on ${site} (hostname) where hostname is not null`);
    this.addSql(`create unique index site_hostname_verified on ${site} (hostname) where hostname_verified`);
  }
}
