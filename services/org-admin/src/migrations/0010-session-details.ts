import { SchemaMigration } from '@quire/kit';

/**
 * A session's own id (what `/v1/user/sessions` and the account page name it by: never its cookie's hash) and the
 * browser that signed in: its User-Agent and address, as the request carried them (docs/sign-in.md).
 */
export class SessionDetailsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(
      `alter table ${this.t('session')} add column id text, add column user_agent text, add column address text`,
    );
    this.addSql(`update ${this.t('session')} set id = md5(hash || random()::text) where id is null`);
    this.addSql(`alter table ${this.t('session')} alter column id set not null`);
    this.addSql(`create unique index session_id on ${this.t('session')} (id)`);
  }
}
