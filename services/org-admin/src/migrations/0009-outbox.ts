import { SchemaMigration } from '@quire/kit';

/**
 * The outbox (docs/sign-in.md): without an SMTP server, the sign-in links and invitations the instance would have
 * mailed are kept (sealed) until their link expires, for the instance admin to read in the app.
 */
export class OutboxMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('outbox_mail')} (
      id text primary key,
      kind text not null check (kind in ('sign-in','invite')),
      "to" text not null,
      subject text not null,
      text text not null,
      link text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null)`);
    this.addSql(`create index outbox_mail_newest on ${this.t('outbox_mail')} (created_at desc, id desc)`);
    this.addSql(`create index outbox_mail_expiry on ${this.t('outbox_mail')} (expires_at)`);
  }
}
