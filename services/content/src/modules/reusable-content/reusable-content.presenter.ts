import type { RevisionReusableContent } from '@quire/contracts';
import type { ReusableContentRecord } from '../revisions/revision-tree.ts';

/** A reusable content as GitBook answers one (RevisionReusableContent): its document by id (its content hash). */
export const presentReusableContent = (record: ReusableContentRecord): RevisionReusableContent => ({
  id: record.id,
  title: record.title,
  ...(record.documentHash ? { document: record.documentHash } : {}),
});

/** The reusable contents of a revision, as the revision lists them (by title, then id). */
export const presentReusableContents = (records: ReadonlyMap<string, ReusableContentRecord>) =>
  [...records.values()]
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id < b.id ? -1 : 1))
    .map(presentReusableContent);

/** The document of a reusable content: GitBook's JSON document itself. */
export const presentReusableContentDocument = (document: Record<string, unknown>) =>
  document as { object: 'document'; data: Record<string, unknown>; nodes: Record<string, unknown>[] };
