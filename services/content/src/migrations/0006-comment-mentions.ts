import { SchemaMigration } from '@quire/kit';

/** The members mentioned in a comment's or a reply's body (user ids, in order of first mention). */
export class CommentMentionsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('comment')} add column mentions jsonb not null default '[]'`);
    this.addSql(`alter table ${this.t('comment_reply')} add column mentions jsonb not null default '[]'`);
  }
}
