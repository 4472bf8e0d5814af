import type { ChangeRequest as ChangeRequestDto } from '@quire/contracts';
import type { ContentContext } from '../../trpc.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { loadUsers } from '../users/user-directory.ts';
import { mergeBaseOf, type IChangeRequest } from './change-request.entity.ts';

type Ctx = Pick<ContentContext, 'peers' | 'requestId' | 'urls'>;

/** Change requests of one space as the API shows them: their authors in one call to org-admin. */
export async function presentChangeRequests(ctx: Ctx, space: Pick<ISpace, 'id' | 'organizationId' | 'revisionId'>, crs: IChangeRequest[]): Promise<ChangeRequestDto[]> {
  const users = await loadUsers(ctx, crs.flatMap((cr) => (cr.mergedBy ? [cr.createdBy, cr.mergedBy] : [cr.createdBy])));
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
    urls: {
      app: ctx.urls.page(`/o/${space.organizationId}/s/${cr.spaceId}/~/changes/${cr.number}`),
      location: ctx.urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`),
    },
  }));
}

export const presentChangeRequest = async (ctx: Ctx, space: Pick<ISpace, 'id' | 'organizationId' | 'revisionId'>, cr: IChangeRequest) => (await presentChangeRequests(ctx, space, [cr]))[0]!;
