// Typed calls of the /v1 operations the app uses: input and output types come from @quire/contracts (types only).
import type { ops } from '@quire/contracts';
import { browserTransport, type In, type Out, pathOf, request, requestAll, seg, type Transport } from './client.ts';

export type Organization = Out<typeof ops.listOrganizationsForAuthenticatedUser>['items'][number];
export type Space = Out<typeof ops.listSpaces>['items'][number];
export type DeletedSpace = Out<typeof ops.listDeletedSpaces>['items'][number];
export type DeletedCollection = Out<typeof ops.listDeletedCollections>['items'][number];
/** Where `POST …/move` puts a space or a collection among its new siblings (at the end when omitted). */
export type ContentPosition = NonNullable<In<typeof ops.moveSpace>['position']>;
export type Collection = Out<typeof ops.listCollectionsInOrganizationById>['items'][number];
export type ChangeRequest = Out<typeof ops.getChangeRequestById>;
export type RevisionPages = Out<typeof ops.listPages>;
export type RevisionPage = RevisionPages['pages'][number];
export type PageWithDocument = Out<typeof ops.getPageByPath>;
export type SearchResults = Out<typeof ops.searchOrganizationContent>;
export type ContentChange = In<typeof ops.updateChangeRequestContent>['changes'][number];
export type RevisionFile = Out<typeof ops.listFilesInChangeRequestById>['items'][number];
export type User = Out<typeof ops.getAuthenticatedUser>;

/**
 * Where the content is read: the space's main revision, a change request (its id or number), or any revision of the
 * space (as it was then: the revision screen).
 */
export type Where = { space: string; changeRequest?: string; revision?: string };
const content = (w: Where) =>
  w.revision
    ? `/spaces/${seg(w.space)}/revisions/${seg(w.revision)}`
    : w.changeRequest
      ? `/spaces/${seg(w.space)}/change-requests/${seg(w.changeRequest)}/content`
      : `/spaces/${seg(w.space)}/content`;

export function apiOf(t: Transport = browserTransport) {
  return {
    user: () => request<User>(t, 'GET', '/user'),
    organizations: () => requestAll<Organization>(t, '/orgs'),
    organization: (org: string) => request<Out<typeof ops.getOrganizationById>>(t, 'GET', `/orgs/${seg(org)}`),
    spaces: (org: string) => requestAll<Space>(t, `/orgs/${seg(org)}/spaces`),
    collections: (org: string) => requestAll<Collection>(t, `/orgs/${seg(org)}/collections`),
    space: (space: string) => request<Space>(t, 'GET', `/spaces/${seg(space)}`),
    createSpace: (org: string, body: Omit<In<typeof ops.createSpace>, 'organizationId'>) =>
      request<Space>(t, 'POST', `/orgs/${seg(org)}/spaces`, { body }),
    updateSpace: (space: string, body: Omit<In<typeof ops.updateSpaceById>, 'spaceId'>) =>
      request<Space>(t, 'PATCH', `/spaces/${seg(space)}`, { body }),
    deleteSpace: (space: string) => request<void>(t, 'DELETE', `/spaces/${seg(space)}`),
    restoreSpace: (space: string) => request<Space>(t, 'POST', `/spaces/${seg(space)}/restore`),
    /** The organization's trash: the deleted spaces the user may restore (Quire-only). */
    deletedSpaces: (org: string) => requestAll<DeletedSpace>(t, `/orgs/${seg(org)}/trash/spaces`),
    moveSpace: (space: string, parent: string | null, position?: ContentPosition) =>
      request<Space>(t, 'POST', `/spaces/${seg(space)}/move`, { body: { parent, ...(position ? { position } : {}) } }),
    moveCollection: (collection: string, parent: string | null, position?: ContentPosition) =>
      request<Collection>(t, 'POST', `/collections/${seg(collection)}/move`, {
        body: { parent, ...(position ? { position } : {}) },
      }),
    /** The organization's trash of collections: the deleted collections the user may restore (Quire-only). */
    deletedCollections: (org: string) => requestAll<DeletedCollection>(t, `/orgs/${seg(org)}/trash/collections`),
    restoreCollection: (collection: string) =>
      request<Collection>(t, 'POST', `/collections/${seg(collection)}/restore`),
    createCollection: (org: string, body: Omit<In<typeof ops.createCollection>, 'organizationId'>) =>
      request<Collection>(t, 'POST', `/orgs/${seg(org)}/collections`, { body }),
    updateCollection: (collection: string, body: Omit<In<typeof ops.updateCollectionById>, 'collectionId'>) =>
      request<Collection>(t, 'PATCH', `/collections/${seg(collection)}`, { body }),
    deleteCollection: (collection: string) => request<void>(t, 'DELETE', `/collections/${seg(collection)}`),
    pages: (w: Where) => request<RevisionPages>(t, 'GET', `${content(w)}/pages`),
    /** The files of the revision (every page of the list). */
    files: (w: Where) => requestAll<RevisionFile>(t, `${content(w)}/files`),
    pageByPath: (w: Where, path: string) =>
      request<PageWithDocument>(t, 'GET', `${content(w)}/path/${pathOf(path)}`, { query: { format: 'document' } }),
    /** A page by its id (`…/page/{pageId}`), with its JSON document. */
    pageById: (w: Where, page: string) =>
      request<PageWithDocument>(t, 'GET', `${content(w)}/page/${seg(page)}`, { query: { format: 'document' } }),
    changeRequest: (space: string, cr: string) =>
      request<ChangeRequest>(t, 'GET', `/spaces/${seg(space)}/change-requests/${seg(cr)}`),
    createChangeRequest: (space: string, subject: string) =>
      request<ChangeRequest>(t, 'POST', `/spaces/${seg(space)}/change-requests`, { body: { subject } }),
    changeContent: (space: string, cr: string, changes: ContentChange[]) =>
      request<ChangeRequest>(t, 'POST', `/spaces/${seg(space)}/change-requests/${seg(cr)}/content`, {
        body: { changes },
      }),
    merge: (space: string, cr: string) =>
      request<Out<typeof ops.mergeChangeRequest>>(t, 'POST', `/spaces/${seg(space)}/change-requests/${seg(cr)}/merge`),
    search: (org: string, query: string) =>
      request<SearchResults>(t, 'GET', `/orgs/${seg(org)}/search`, { query: { query, limit: 10 } }),
  };
}

export type Api = ReturnType<typeof apiOf>;
export const api = apiOf();
