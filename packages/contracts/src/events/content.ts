import { z } from 'zod';
import { defineEvent } from './define.ts';
import { OPENAPI_ERROR_CODES } from '../schemas/openapi.ts';

const space = z.string().describe('Space id');
const collection = z.string().describe('Collection id');
const organization = z.string().describe('Id of the organization owning the resource (after the change)');
const parent = z.string().optional().describe('Parent collection id; absent at the top level');
const fields = z.array(z.string()).describe('Names of the fields that changed');

/** Events of the content service (`quire.content.<entity>.<verb>`). */
export const contentEvents = {
  spaceCreated: defineEvent(
    'content',
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
  spaceUpdated: defineEvent(
    'content',
    'space.updated',
    z.object({ space, organization, title: z.string(), parent, fields }),
  ),
  /** Moved to the trash: restorable for 7 days, then purged. */
  spaceDeleted: defineEvent('content', 'space.deleted', z.object({ space, organization, deletedAt: z.iso.datetime() })),
  spaceRestored: defineEvent('content', 'space.restored', z.object({ space, organization, title: z.string() })),
  /** Removed for good (7 days after deletion): drop everything that refers to it. */
  spacePurged: defineEvent('content', 'space.purged', z.object({ space, organization })),
  /** Moved to another organization, alone or with its collection (`collection` is then the transferred root). */
  spaceTransferred: defineEvent(
    'content',
    'space.transferred',
    z.object({
      space,
      organization,
      previousOrganization: z.string(),
      title: z.string(),
      collection: z.string().optional(),
    }),
  ),

  collectionCreated: defineEvent(
    'content',
    'collection.created',
    z.object({ collection, organization, title: z.string(), parent }),
  ),
  collectionUpdated: defineEvent(
    'content',
    'collection.updated',
    z.object({ collection, organization, title: z.string(), fields }),
  ),
  /** Explicit roles on a space or collection given, changed or removed (`role` null: removed). */
  permissionsUpdated: defineEvent(
    'content',
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
  collectionDeleted: defineEvent(
    'content',
    'collection.deleted',
    z.object({
      collection,
      organization,
      parent,
      movedSpaces: z.array(z.string()),
      movedCollections: z.array(z.string()),
    }),
  ),
  collectionMoved: defineEvent('content', 'collection.moved', z.object({ collection, organization, parent })),
  /** Moved to another organization with its sub-collections and all their spaces (each also gets `space.transferred`). */
  collectionTransferred: defineEvent(
    'content',
    'collection.transferred',
    z.object({
      collection,
      organization,
      previousOrganization: z.string(),
      collections: z.array(z.string()),
      spaces: z.array(z.string()),
    }),
  ),

  changeRequestCreated: defineEvent(
    'content',
    'change-request.created',
    z.object({ space, organization, changeRequest: z.string(), number: z.number().int(), createdBy: z.string() }),
  ),
  /** Subject (or other details) changed; `fields` says which. */
  changeRequestUpdated: defineEvent(
    'content',
    'change-request.updated',
    z.object({ space, organization, changeRequest: z.string(), fields }),
  ),
  changeRequestStatusChanged: defineEvent(
    'content',
    'change-request.status-changed',
    z.object({ space, organization, changeRequest: z.string(), status: z.string(), previousStatus: z.string() }),
  ),
  /** Users were asked to review a change request (only the newly requested ones are listed). */
  changeRequestReviewRequested: defineEvent(
    'content',
    'change-request.review-requested',
    z.object({
      space,
      organization,
      changeRequest: z.string(),
      users: z.array(z.string()).describe('Ids of the users newly requested'),
      requestedBy: z.string(),
      revision: z.string(),
    }),
  ),
  /** A review was submitted on a change request's revision. */
  changeRequestReviewed: defineEvent(
    'content',
    'change-request.reviewed',
    z.object({
      space,
      organization,
      changeRequest: z.string(),
      review: z.string(),
      reviewer: z.string(),
      status: z.string(),
      revision: z.string(),
    }),
  ),
  /** A comment was posted on a space or a change request (`changeRequest` set for the latter). */
  commentCreated: defineEvent(
    'content',
    'comment.created',
    z.object({
      space,
      organization,
      comment: z.string(),
      changeRequest: z.string().optional(),
      page: z.string().optional(),
      postedBy: z.string(),
      mentions: z.array(z.string()).optional(),
    }),
  ),
  /** A comment's body or reactions changed (`fields` says which). */
  commentUpdated: defineEvent(
    'content',
    'comment.updated',
    z.object({
      space,
      organization,
      comment: z.string(),
      changeRequest: z.string().optional(),
      fields,
      mentions: z.array(z.string()).optional(),
    }),
  ),
  commentResolved: defineEvent(
    'content',
    'comment.resolved',
    z.object({
      space,
      organization,
      comment: z.string(),
      changeRequest: z.string().optional(),
      resolvedBy: z.string(),
    }),
  ),
  commentReopened: defineEvent(
    'content',
    'comment.reopened',
    z.object({
      space,
      organization,
      comment: z.string(),
      changeRequest: z.string().optional(),
      reopenedBy: z.string(),
    }),
  ),
  /** A comment was deleted, with its replies. */
  commentDeleted: defineEvent(
    'content',
    'comment.deleted',
    z.object({ space, organization, comment: z.string(), changeRequest: z.string().optional() }),
  ),
  commentReplyCreated: defineEvent(
    'content',
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
  commentReplyDeleted: defineEvent(
    'content',
    'comment-reply.deleted',
    z.object({ space, organization, comment: z.string(), reply: z.string(), changeRequest: z.string().optional() }),
  ),
  changeRequestMerged: defineEvent(
    'content',
    'change-request.merged',
    z.object({ space, organization, changeRequest: z.string(), revision: z.string(), conflicts: z.number().int() }),
  ),
  /** The content of a space (its live revision) changed: a merge, or an import. */
  spaceContentUpdated: defineEvent(
    'content',
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
  spaceGitRedirectsUpdated: defineEvent(
    'content',
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
  openapiSpecProcessed: defineEvent(
    'content',
    'openapi-spec.processed',
    z.object({
      spec: z.string().describe('OpenAPI specification id'),
      organization,
      slug: z.string().describe('Slug of the specification'),
      version: z.string().describe('Id of the latest version'),
      created: z.boolean().describe('Whether this processing stored a new version'),
    }),
  ),
  /** Processing an OpenAPI specification failed; its previous version (if any) stays the latest. */
  openapiSpecFailed: defineEvent(
    'content',
    'openapi-spec.failed',
    z.object({
      spec: z.string().describe('OpenAPI specification id'),
      organization,
      slug: z.string().describe('Slug of the specification'),
      code: z.enum(OPENAPI_ERROR_CODES).describe('Why it failed'),
      message: z.string().describe('What the fetcher or the parser said'),
    }),
  ),
} as const;
