import type { GitSyncBlob, RevisionReusableContent } from '@quire/contracts';
import type { ReusableContentRecord } from '../revisions/revision-tree.ts';

/**
 * A reusable content as GitBook answers one (RevisionReusableContent): its document by id (its content hash), and
 * `git` (its `.gitbook/includes/` file) when the revision came from Git or went to it.
 */
export const presentReusableContent = (record: ReusableContentRecord, git?: GitSyncBlob): RevisionReusableContent => ({
  id: record.id,
  title: record.title,
  ...(record.documentHash ? { document: record.documentHash } : {}),
  ...(git ? { git } : {}),
});

/** The reusable contents of a revision, as the revision lists them (by title, then id). */
export const presentReusableContents = (
  records: ReadonlyMap<string, ReusableContentRecord>,
  git?: ReadonlyMap<string, GitSyncBlob>,
) =>
  [...records.values()]
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id < b.id ? -1 : 1))
    .map((r) => presentReusableContent(r, git?.get(r.id)));

/** The document of a reusable content: GitBook's JSON document itself. */
export const presentReusableContentDocument = (document: Record<string, unknown>) =>
  document as { object: 'document'; data: Record<string, unknown>; nodes: Record<string, unknown>[] };
