// What made a revision of the space's history, and who: the words the History screen shows.
import type { SpaceRevision } from '../api/settings.ts';

/** What made a revision, in words: a Git sync, a merged change request, the first revision, an edit through the API. */
export function kindOf(r: SpaceRevision): string {
  const cr = r.mergedFrom;
  if (r.git) {
    const message = r.git.message.split('\n')[0]?.trim();
    return `Git sync from ${r.git.oid.slice(0, 7)}${message ? `: ${message}` : ''}`;
  }
  if (cr) return `Merged change request #${cr.number}${cr.subject ? `: ${cr.subject}` : ''}`;
  switch (r.type) {
    case 'merge':
      return 'Merged a change request';
    case 'rollback':
      return 'Rolled back to an earlier revision';
    case 'update':
      return 'Updated from the space';
    case 'edits':
      return r.parents.length === 0 ? 'Space created' : 'Edited through the API';
  }
}

/** Who made a revision, when the API says: the member who merged its change request (or opened it). */
export const authorOf = (r: SpaceRevision): string | undefined =>
  (r.mergedFrom?.mergedBy ?? r.mergedFrom?.createdBy)?.displayName;
