import { z } from 'zod';
import { eventsOf } from './define.ts';
import { OPENAPI_ERROR_CODES } from '../schemas/openapi.ts';

const space = z.string().describe('Space id');
const collection = z.string().describe('Collection id');
const organization = z.string().describe('Id of the organization owning the resource (after the change)');
const parent = z.string().optional().describe('Parent collection id; absent at the top level');
const fields = z.array(z.string()).describe('Names of the fields that changed');
/** Whose every change request event is: the change request, its space and organization. */
const ofChangeRequest = { space, organization, changeRequest: z.string() };
/** Whose every comment event is: the comment, its space and organization, its change request if on one. */
const ofComment = { space, organization, comment: z.string(), changeRequest: z.string().optional() };
/** Whose every OpenAPI specification event is: the specification, its organization and slug. */
const ofSpec = {
  spec: z.string().describe('OpenAPI specification id'),
  organization,
  slug: z.string().describe('Slug of the specification'),
};

const event = eventsOf('content');

/** Events of the content service (`quire.content.<entity>.<verb>`). */
export const contentEvents = {
  spaceCreated: event(
    'space.created',
    z.object({
      space,
      organization,
      title: z.string(),
      parent,
      duplicatedFrom: z.string().optional().describe('The source space, for a duplicate'),
    }),
  ),
  /** Settings changed, or the space moved within its organization (`fields` says which). */
  spaceUpdated: event('space.updated', z.object({ space, organization, title: z.string(), parent, fields })),
  /** Moved to the trash: restorable for 7 days, then purged. */
  spaceDeleted: event('space.deleted', z.object({ space, organization, deletedAt: z.iso.datetime() })),
  spaceRestored: event('space.restored', z.object({ space, organization, title: z.string() })),
  /** Removed for good (7 days after deletion): drop everything that refers to it. */
  spacePurged: event('space.purged', z.object({ space, organization })),
  /** Moved to another organization, alone or with its collection (`collection` is then the transferred root). */
  spaceTransferred: event(
    'space.transferred',
    z.object({
      space,
      organization,
      previousOrganization: z.string(),
      title: z.string(),
      collection: z.string().optional(),
    }),
  ),

  collectionCreated: event('collection.created', z.object({ collection, organization, title: z.string(), parent })),
  collectionUpdated: event('collection.updated', z.object({ collection, organization, title: z.string(), fields })),
  /** Explicit roles on a space or collection given, changed or removed (`role` null: removed). */
  permissionsUpdated: event(
    'permissions.updated',
    z.object({
      organization,
      space: space.optional(),
      collection: collection.optional(),
      users: z.array(z.string()).describe('Users whose explicit role changed'),
      teams: z.array(z.string()).describe('Teams whose explicit role changed'),
      role: z.string().nullable().describe('The role given, null when removed'),
    }),
  ),
  /** Deleted; its spaces and sub-collections moved up to `parent`. */
  collectionDeleted: event(
    'collection.deleted',
    z.object({
      collection,
      organization,
      parent,
      movedSpaces: z.array(z.string()),
      movedCollections: z.array(z.string()),
    }),
  ),
  /** Taken out of the trash (Quire-only), with its id; what its delete moved up and was still there moved back. */
  collectionRestored: event(
    'collection.restored',
    z.object({
      collection,
      organization,
      title: z.string(),
      parent,
      movedSpaces: z.array(z.string()),
      movedCollections: z.array(z.string()),
    }),
  ),
  collectionMoved: event('collection.moved', z.object({ collection, organization, parent })),
  /** Moved to another organization with its sub-collections and all their spaces (each also gets `space.transferred`). */
  collectionTransferred: event(
    'collection.transferred',
    z.object({
      collection,
      organization,
      previousOrganization: z.string(),
      collections: z.array(z.string()),
      spaces: z.array(z.string()),
    }),
  ),

  changeRequestCreated: event(
    'change-request.created',
    z.object({ ...ofChangeRequest, number: z.number().int(), createdBy: z.string() }),
  ),
  /** Subject (or other details) changed; `fields` says which. */
  changeRequestUpdated: event('change-request.updated', z.object({ ...ofChangeRequest, fields })),
  changeRequestStatusChanged: event(
    'change-request.status-changed',
    z.object({ ...ofChangeRequest, status: z.string(), previousStatus: z.string() }),
  ),
  /** Users were asked to review a change request (only the newly requested ones are listed). */
  changeRequestReviewRequested: event(
    'change-request.review-requested',
    z.object({
      ...ofChangeRequest,
      users: z.array(z.string()).describe('Ids of the users newly requested'),
      requestedBy: z.string(),
      revision: z.string(),
    }),
  ),
  /** A review was submitted on a change request's revision. */
  changeRequestReviewed: event(
    'change-request.reviewed',
    z.object({
      ...ofChangeRequest,
      review: z.string(),
      reviewer: z.string(),
      status: z.string(),
      revision: z.string(),
    }),
  ),
  /** A comment was posted on a space or a change request (`changeRequest` set for the latter). */
  commentCreated: event(
    'comment.created',
    z.object({
      ...ofComment,
      page: z.string().optional(),
      postedBy: z.string(),
      mentions: z.array(z.string()).optional(),
    }),
  ),
  /** A comment's body or reactions changed (`fields` says which). */
  commentUpdated: event(
    'comment.updated',
    z.object({
      ...ofComment,
      fields,
      mentions: z.array(z.string()).optional(),
    }),
  ),
  commentResolved: event(
    'comment.resolved',
    z.object({
      ...ofComment,
      resolvedBy: z.string(),
    }),
  ),
  commentReopened: event(
    'comment.reopened',
    z.object({
      ...ofComment,
      reopenedBy: z.string(),
    }),
  ),
  /** A comment was deleted, with its replies. */
  commentDeleted: event('comment.deleted', z.object(ofComment)),
  commentReplyCreated: event(
    'comment-reply.created',
    z.object({
      space,
      organization,
      comment: z.string(),
      reply: z.string(),
      changeRequest: z.string().optional(),
      postedBy: z.string(),
      mentions: z.array(z.string()).optional(),
    }),
  ),
  commentReplyDeleted: event(
    'comment-reply.deleted',
    z.object({ space, organization, comment: z.string(), reply: z.string(), changeRequest: z.string().optional() }),
  ),
  changeRequestMerged: event(
    'change-request.merged',
    z.object({ ...ofChangeRequest, revision: z.string(), conflicts: z.number().int() }),
  ),
  /** The content of a space (its live revision) changed: a merge, or an import. */
  spaceContentUpdated: event(
    'space.content-updated',
    z.object({
      space,
      organization,
      revision: z.string(),
      previousRevision: z.string(),
      pages: z.array(z.string()).describe('Ids of the pages created, changed or deleted'),
    }),
  ),
  /**
   * A Git import read the space's redirects (`.gitbook.yaml`'s `redirects`): each source path, relative to the
   * space's URL on a site, leads to a page of the space. The whole set: it replaces the space's earlier one.
   */
  spaceGitRedirectsUpdated: event(
    'space.git-redirects-updated',
    z.object({
      space,
      organization,
      commit: z.string().describe('The commit imported'),
      redirects: z
        .array(
          z.object({
            source: z.string().describe("Path relative to the space's URL (`help`, `old/page`), no leading `/`"),
            page: z.string().describe('Id of the page it leads to'),
          }),
        )
        .describe('Every redirect of the space, in the order `.gitbook.yaml` gives them'),
    }),
  ),
  /** An OpenAPI specification was processed: `version` is its latest version (`created` false when the document had not changed). */
  openapiSpecProcessed: event(
    'openapi-spec.processed',
    z.object({
      ...ofSpec,
      version: z.string().describe('Id of the latest version'),
      created: z.boolean().describe('Whether this processing stored a new version'),
    }),
  ),
  /** Processing an OpenAPI specification failed; its previous version (if any) stays the latest. */
  openapiSpecFailed: event(
    'openapi-spec.failed',
    z.object({
      ...ofSpec,
      code: z.enum(OPENAPI_ERROR_CODES).describe('Why it failed'),
      message: z.string().describe('What the fetcher or the parser said'),
    }),
  ),
} as const;
