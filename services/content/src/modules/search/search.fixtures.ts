import { ops, type Actor, type ContentChange } from '@quire/contracts';
import { sql } from '@quire/kit';
import type { TestService } from '@quire/kit/testing';
import { editContent } from '../change-requests/content-edit.fixtures.ts';

/**
 * Test helper: applies changes to a space through a change request merged into it; resolves to the merged revision.
 * The change request is written with the content engine's commands (their operations present users, which org-admin
 * serves, absent from a content-only test); the merge is the operation, with its `space.content-updated`.
 */
export async function mergeChanges(
  t: TestService,
  spaceId: string,
  changes: ContentChange[],
  as: Actor,
): Promise<string> {
  const userId = as.kind === 'user' ? as.userId : 'system';
  const cr = await editContent(t, spaceId, undefined, changes, userId, { subject: 'Edit' });
  return (await t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: cr.id }, as)).revision;
}

/** An `insert_page` change with a markdown document. */
export const insertPage = (
  title: string,
  markdown: string,
  extra: Partial<Extract<ContentChange, { operation: 'insert_page' }>> = {},
): ContentChange => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra,
});

/** The revision a space's search index reflects (null: not indexed yet; undefined: no index state). */
export const indexedRevision = async (t: TestService, spaceId: string): Promise<string | null | undefined> =>
  (
    await sql<{ revision_id: string | null }>(
      t.em(),
      `select revision_id from :schema.search_space where space_id = ?`,
      [spaceId],
    )
  )[0]?.revision_id;
