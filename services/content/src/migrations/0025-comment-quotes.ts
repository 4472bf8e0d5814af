import { SchemaMigration } from '@quire/kit';

/**
 * The text a comment is about (issue 40, comments on a selection): the quote selected in its node and where it
 * starts in the node's plain text; null for a comment on a whole node, a page or the change request.
 */
export class CommentQuotesMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('comment')} add column quote_text text, add column quote_offset integer`);
  }
}
