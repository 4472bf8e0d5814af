import type { ChangeRequest as ChangeRequestDto, RevisionSemanticChange } from '@quire/contracts';
import { usersByIds } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { presentFile } from '../content/content.presenter.ts';
import { evaluateChangeRequestMergeRules } from '../merge-rules/merge-rules.ts';
import type { RevisionTree } from '../revisions/revision-tree.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { mergeBaseOf, type IChangeRequest } from './change-request.entity.ts';

type Ctx = Pick<ContentContext, 'peers' | 'requestId' | 'urls'>;

/** Change requests of one space as the API shows them: their authors in one call to org-admin. */
export async function presentChangeRequests(
  ctx: Ctx,
  space: Pick<ISpace, 'id' | 'organizationId' | 'revisionId'>,
  crs: IChangeRequest[],
): Promise<ChangeRequestDto[]> {
  const users = await usersByIds(
    ctx,
    crs.flatMap((cr) => (cr.mergedBy ? [cr.createdBy, cr.mergedBy] : [cr.createdBy])),
  );
  return crs.map((cr) => ({
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: users.get(cr.createdBy)!,
    createdAt: cr.createdAt.toISOString(),
    updatedAt: cr.updatedAt.toISOString(),
    ...(cr.mergedBy ? { mergedBy: users.get(cr.mergedBy)! } : {}),
    ...(cr.mergedAt ? { mergedAt: cr.mergedAt.toISOString() } : {}),
    space: cr.spaceId,
    revision: cr.revisionId,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    comments: cr.comments,
    outdated: cr.status !== 'merged' && mergeBaseOf(cr) !== space.revisionId,
    conflicting: cr.conflicts.length > 0,
    urls: {
      app: ctx.urls.page(`/o/${space.organizationId}/s/${cr.spaceId}/~/changes/${cr.number}`),
      location: ctx.urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`),
    },
  }));
}

export const presentChangeRequest = async (
  ctx: Ctx,
  space: Pick<ISpace, 'id' | 'organizationId' | 'revisionId'>,
  cr: IChangeRequest,
) => (await presentChangeRequests(ctx, space, [cr]))[0]!;

/** A change request as its own page shows it: with the merge rules in force evaluated for the caller, unless merged. */
export async function presentChangeRequestWithRules(
  ctx: Ctx & Pick<ContentContext, 'em'> & { actor: { userId: string } },
  space: ISpace,
  cr: IChangeRequest,
) {
  const presented = await presentChangeRequest(ctx, space, cr);
  if (cr.status === 'merged') return presented;
  // Only here: evaluating the rules reads the reviews.
  return {
    ...presented,
    mergeRules: await evaluateChangeRequestMergeRules(ctx.em, { space, changeRequest: cr, userId: ctx.actor.userId }),
  };
}

/** File changes between two trees, in GitBook's shapes. */
export async function presentFileChanges(
  ctx: Parameters<typeof presentFile>[0],
  base: RevisionTree,
  head: RevisionTree,
): Promise<RevisionSemanticChange[]> {
  const out: RevisionSemanticChange[] = [];
  const ref = async (f: Parameters<typeof presentFile>[1]) => {
    const { id, name, contentType, downloadURL } = await presentFile(ctx, f);
    return { id, name, contentType, downloadURL };
  };
  for (const [id, f] of head.files) {
    const before = base.files.get(id);
    if (!before) out.push({ type: 'file_created', file: await ref(f) });
    else if (before.blobKey !== f.blobKey || before.name !== f.name || before.contentType !== f.contentType) {
      out.push({
        type: 'file_edited',
        file: await ref(f),
        attributes: {
          ...(before.name !== f.name ? { name: { before: before.name, after: f.name } } : {}),
          ...(before.contentType !== f.contentType
            ? { contentType: { before: before.contentType, after: f.contentType } }
            : {}),
          ...(before.size !== f.size ? { size: { before: before.size, after: f.size } } : {}),
        },
      });
    }
  }
  for (const [id, f] of base.files) if (!head.files.has(id)) out.push({ type: 'file_deleted', file: await ref(f) });
  return out;
}
