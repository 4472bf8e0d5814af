import { SchemaMigration } from '@quire/kit';

/**
 * Comments on a space or on a change request (`change_request_id` set), their replies and the reactions of
 * both (one per user per emoji: the primary key; `subject_id` is the comment or the reply, `comment_id` the comment, for the cascade). A comment remembers the revision it was posted on and the
 * document of its page then, to tell whether the page changed since (`outdated`).
 */
export class CommentsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('comment')} (
      id text primary key,
      space_id text not null references ${this.t('space')} (id) on delete cascade deferrable initially deferred,
      change_request_id text null references ${this.t('change_request')} (id) on delete cascade deferrable initially deferred,
      posted_by text not null,
      body text not null,
      revision_id text not null,
      page_id text null,
      page_title text null,
      page_document text null,
      node_id text null,
      status text not null default 'open',
      resolved_at timestamptz null,
      resolved_by text null,
      replies int not null default 0,
      posted_at timestamptz not null,
      edited_at timestamptz null)`);
    this.addSql(
      `create index comment_space_posted on ${this.t('comment')} (space_id, change_request_id, posted_at, id)`,
    );
    this.addSql(`create table ${this.t('comment_reply')} (
      id text primary key,
      comment_id text not null references ${this.t('comment')} (id) on delete cascade,
      posted_by text not null,
      body text not null,
      posted_at timestamptz not null,
      edited_at timestamptz null)`);
    this.addSql(`create index comment_reply_comment on ${this.t('comment_reply')} (comment_id, posted_at, id)`);
    this.addSql(`create table ${this.t('comment_reaction')} (
      comment_id text not null references ${this.t('comment')} (id) on delete cascade,
      subject_id text not null,
      emoji text not null,
      user_id text not null,
      reacted_at timestamptz not null,
      primary key (subject_id, emoji, user_id))`);
    this.addSql(`create index comment_reaction_comment on ${this.t('comment_reaction')} (comment_id)`);
  }
}
