import type { Revision, RevisionSemanticChanges } from '@quire/contracts';
import type { IChangeRequest } from '../change-requests/change-request.entity.ts';
import type { ContentContext } from '../../trpc.ts';
import { presentChangeRequests } from '../change-requests/change-request.presenter.ts';
import { presentRevision } from '../content/content.presenter.ts';
import { presentGitCommit } from '../git/git.presenter.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import type { RevisionParts } from './revision-history.loader.ts';

type Ctx = Pick<ContentContext, 'peers' | 'requestId' | 'urls' | 'downloads'>;

/** Revisions as GitBook's Revision objects, a merge with the change request it merged (`mergedFrom`, authors in one call). */
export async function presentRevisions(ctx: Ctx, space: ISpace, parts: RevisionParts[]): Promise<Revision[]> {
  const crs = parts.flatMap((p) => (p.mergedFrom ? [p.mergedFrom] : []));
  const presented = new Map((await presentChangeRequests(ctx, space, crs)).map((cr) => [cr.id, cr]));
  return Promise.all(
    parts.map(async (p) => {
      const revision = await presentRevision(ctx, p.tree, space, presentGitCommit(p.commit), p.blobs, p.fileBlobs);
      const mergedFrom = p.mergedFrom && presented.get(p.mergedFrom.id);
      return mergedFrom ? { ...revision, mergedFrom } : revision;
    }),
  );
}

/** What a revision changed (GitBook's RevisionSemanticChanges), a merge's with the change request it merged. */
export async function presentRevisionChanges(
  ctx: Ctx,
  space: ISpace,
  changes: RevisionSemanticChanges,
  mergedFrom: IChangeRequest | undefined,
): Promise<RevisionSemanticChanges> {
  if (!mergedFrom) return changes;
  const [presented] = await presentChangeRequests(ctx, space, [mergedFrom]);
  return { mergedFrom: presented, ...changes };
}
