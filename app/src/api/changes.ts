// Typed calls of the /v1 operations of change-request review: list, changes, reviews, reviewers, contributors,
// comments (on the change request or on a block, edited, deleted and reacted to), update and merge. Types come from
// @quire/contracts (types only: no schema reaches the bundle).
import type { ops } from '@quire/contracts';
import type { ChangeRequest } from './endpoints.ts';
import type { Member } from './settings.ts';
import { browserTransport, type In, type Out, request, requestAll, seg, type Transport } from './client.ts';

export type { ChangeRequest, Member };
export type ChangeRequestStatus = In<typeof ops.listChangeRequestsForSpace>['status'];
export type SemanticChange = Out<typeof ops.getChangeRequestChanges>['changes'][number];
export type Review = Out<typeof ops.getReviewsByChangeRequestId>['items'][number];
export type RequestedReviewer = Out<typeof ops.getRequestedReviewersByChangeRequestId>['items'][number];
export type Comment = Out<typeof ops.listCommentsInChangeRequest>['items'][number];
export type Reply = Out<typeof ops.listCommentRepliesInChangeRequest>['items'][number];
export type MergeResult = Out<typeof ops.mergeChangeRequest>;
export type Page = Out<typeof ops.getPageInRevisionById>;
export type Contributor = Out<typeof ops.getContributorsByChangeRequestId>['items'][number];
/** What a reaction update adds or takes away (the caller's reactions). */
export type ReactionChange = { addedReactions?: string[]; removedReactions?: string[] };

/** The signed-in user, asked once per load of the app (whose reactions are "mine"). */
let signedIn: Promise<Out<typeof ops.getAuthenticatedUser>> | undefined;

export function changesApiOf(t: Transport = browserTransport) {
  const cr = (space: string, id: string) => `/spaces/${seg(space)}/change-requests/${seg(id)}`;
  return {
    /** The signed-in user (`GET /user`). */
    me: () => request<Out<typeof ops.getAuthenticatedUser>>(t, 'GET', '/user'),
    /** `me()`, once: the same answer for every comment's reactions. */
    meOnce: () => {
      signedIn ??= request<Out<typeof ops.getAuthenticatedUser>>(t, 'GET', '/user').catch((e: unknown) => {
        signedIn = undefined;
        throw e;
      });
      return signedIn;
    },
    list: (space: string, status: ChangeRequestStatus) =>
      requestAll<ChangeRequest>(t, `/spaces/${seg(space)}/change-requests`, { status }),
    get: (space: string, id: string) => request<ChangeRequest>(t, 'GET', cr(space, id)),
    rename: (space: string, id: string, subject: string) =>
      request<ChangeRequest>(t, 'PATCH', cr(space, id), { body: { subject } }),
    setStatus: (space: string, id: string, status: 'draft' | 'open' | 'archived') =>
      request<ChangeRequest>(t, 'PATCH', cr(space, id), { body: { status } }),
    changes: (space: string, id: string) =>
      request<Out<typeof ops.getChangeRequestChanges>>(t, 'GET', `${cr(space, id)}/changes`, {
        query: { limit: 1000 },
      }),
    /** A page of a revision (the merge base), as a JSON document. */
    pageInRevision: (space: string, revision: string, page: string) =>
      request<Page>(t, 'GET', `/spaces/${seg(space)}/revisions/${seg(revision)}/page/${seg(page)}`, {
        query: { format: 'document' },
      }),
    /** The pages of a revision (the merge base), for the links of its pages drawn in the review. */
    revisionPages: (space: string, revision: string) =>
      request<Out<typeof ops.listPagesInRevisionById>>(
        t,
        'GET',
        `/spaces/${seg(space)}/revisions/${seg(revision)}/pages`,
      ),
    /** The files of a revision (the merge base), for the images and files of its pages drawn in the review. */
    revisionFiles: (space: string, revision: string) =>
      requestAll<Out<typeof ops.listFilesInRevisionById>['items'][number]>(
        t,
        `/spaces/${seg(space)}/revisions/${seg(revision)}/files`,
      ),
    /** A page of the change request, as a JSON document. */
    pageInChangeRequest: (space: string, id: string, page: string) =>
      request<Page>(t, 'GET', `${cr(space, id)}/content/page/${seg(page)}`, { query: { format: 'document' } }),
    reviews: (space: string, id: string) => requestAll<Review>(t, `${cr(space, id)}/reviews`),
    review: (space: string, id: string, status: Review['status'], markdown: string) =>
      request<Review>(t, 'POST', `${cr(space, id)}/reviews`, {
        body: { status, ...(markdown.trim() ? { comment: { markdown } } : {}) },
      }),
    /** Who edited the content of the change request (`getContributorsByChangeRequestId`), first contributor first. */
    contributors: (space: string, id: string) => requestAll<Contributor>(t, `${cr(space, id)}/contributors`),
    requested: (space: string, id: string) => requestAll<RequestedReviewer>(t, `${cr(space, id)}/requested-reviewers`),
    requestReviewers: (space: string, id: string, users: string[]) =>
      request<unknown>(t, 'POST', `${cr(space, id)}/requested-reviewers`, { body: { users } }),
    withdrawReviewer: (space: string, id: string, user: string) =>
      request<void>(t, 'DELETE', `${cr(space, id)}/requested-reviewers/${seg(user)}`),
    members: (org: string) => requestAll<Member>(t, `/orgs/${seg(org)}/members`),
    comments: (space: string, id: string) =>
      requestAll<Comment>(t, `${cr(space, id)}/comments`, { order: 'asc', status: 'all' }),
    /**
     * A comment on the change request, or on a block (`node`) of one of its pages (`page`), or on text selected
     * there (Quire's `quote`).
     */
    comment: (
      space: string,
      id: string,
      markdown: string,
      on?: { page: string; node: string; quote?: { text: string; offset?: number } },
    ) => request<Comment>(t, 'POST', `${cr(space, id)}/comments`, { body: { ...on, body: { markdown } } }),
    editComment: (space: string, id: string, comment: string, markdown: string) =>
      request<Comment>(t, 'PUT', `${cr(space, id)}/comments/${seg(comment)}`, { body: { body: { markdown } } }),
    /** Deletes a comment with its replies. */
    deleteComment: (space: string, id: string, comment: string) =>
      request<void>(t, 'DELETE', `${cr(space, id)}/comments/${seg(comment)}`),
    resolve: (space: string, id: string, comment: string, resolved: boolean) =>
      request<Comment>(t, 'PUT', `${cr(space, id)}/comments/${seg(comment)}`, { body: { resolved } }),
    /** Adds or takes away the caller's reactions to a comment. */
    reactToComment: (space: string, id: string, comment: string, change: ReactionChange) =>
      request<Comment>(t, 'PUT', `${cr(space, id)}/comments/${seg(comment)}`, { body: change }),
    /** Adds or takes away the caller's reactions to a reply. */
    reactToReply: (space: string, id: string, comment: string, reply: string, change: ReactionChange) =>
      request<Reply>(t, 'PUT', `${cr(space, id)}/comments/${seg(comment)}/replies/${seg(reply)}`, { body: change }),
    replies: (space: string, id: string, comment: string) =>
      requestAll<Reply>(t, `${cr(space, id)}/comments/${seg(comment)}/replies`),
    reply: (space: string, id: string, comment: string, markdown: string) =>
      request<Reply>(t, 'POST', `${cr(space, id)}/comments/${seg(comment)}/replies`, { body: { body: { markdown } } }),
    editReply: (space: string, id: string, comment: string, reply: string, markdown: string) =>
      request<Reply>(t, 'PUT', `${cr(space, id)}/comments/${seg(comment)}/replies/${seg(reply)}`, {
        body: { body: { markdown } },
      }),
    deleteReply: (space: string, id: string, comment: string, reply: string) =>
      request<void>(t, 'DELETE', `${cr(space, id)}/comments/${seg(comment)}/replies/${seg(reply)}`),
    /** Writes a page's JSON document in the change request (`updateChangeRequestContent`, one `update_page`). */
    writePageDocument: (space: string, id: string, page: string, document: unknown) =>
      request<ChangeRequest>(t, 'POST', `${cr(space, id)}/content`, {
        body: { changes: [{ operation: 'update_page', page, document: { document } }] },
      }),
    updateFromMain: (space: string, id: string) => request<MergeResult>(t, 'POST', `${cr(space, id)}/update`),
    merge: (space: string, id: string) => request<MergeResult>(t, 'POST', `${cr(space, id)}/merge`),
  };
}

export type ChangesApi = ReturnType<typeof changesApiOf>;
export const changesApi = changesApiOf();
