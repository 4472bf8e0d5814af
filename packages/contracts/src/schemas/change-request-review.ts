import { z } from 'zod';
import { TimestampSchema, UrlSchema } from '../common.ts';
import { UserSchema } from './user.ts';
import { objectAndId } from './shapes.ts';

export const CHANGE_REQUEST_REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export const ChangeRequestReviewStatusSchema = z
  .enum(CHANGE_REQUEST_REVIEW_STATUSES)
  .describe('Status of the review: approved or changes-requested');
export type ChangeRequestReviewStatus = z.infer<typeof ChangeRequestReviewStatusSchema>;

export const MAX_REVIEW_COMMENT = 10_000;
/** How many users one request for reviewers may name. */
export const MAX_REQUESTED_REVIEWERS = 50;
const CommentMarkdownSchema = z
  .string()
  .max(MAX_REVIEW_COMMENT)
  .describe(`Markdown of the comment (max ${MAX_REVIEW_COMMENT})`);
/**
 * The comment submitted with a review: GitBook's Document as `{ markdown }` (or `{}` for none), or the markdown
 * as a plain string. JSON documents are not supported yet (400).
 */
export const ReviewCommentInputSchema = z
  .union([CommentMarkdownSchema, z.object({ markdown: CommentMarkdownSchema.optional() }).strict()])
  .describe(
    'Optionally, a comment with the review: `{ markdown }` or a markdown string (JSON documents are not supported yet)',
  );

export const ChangeRequestRequestedReviewerSchema = z
  .object({
    object: z.literal('change-request-requested-reviewer').describe('Always `change-request-requested-reviewer`'),
    revision: z.string().describe('The revision of the change request when the review was requested'),
    requestedBy: UserSchema.describe('Who requested the review'),
    createdAt: TimestampSchema.describe('When the review was requested'),
    kind: z.literal('user').describe('Always `user`: a user was requested to review'),
    user: UserSchema.describe('The user requested to review'),
  })
  .describe('ChangeRequestRequestedReviewer');
export type ChangeRequestRequestedReviewer = z.infer<typeof ChangeRequestRequestedReviewerSchema>;

export const ChangeRequestReviewSchema = z
  .object({
    ...objectAndId('change-request-review', 'review'),
    revision: z.string().describe('The revision of the change request the review was made against'),
    reviewer: UserSchema.describe('Who reviewed'),
    requestedBy: UserSchema.optional().describe(
      'Who had requested the review; absent when the review was left without a request',
    ),
    status: ChangeRequestReviewStatusSchema,
    outdated: z
      .boolean()
      .describe('True once the change request moved on to another revision, or the reviewer submitted a newer review'),
    commentMarkdown: z
      .string()
      .optional()
      .describe(
        'Markdown of the comment submitted with the review, when there was one (Quire has no comment objects yet: GitBook’s `comment` object is absent)',
      ),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    urls: z.object({ location: UrlSchema.describe('URL of the review in the API') }),
  })
  .describe('ChangeRequestReview');
export type ChangeRequestReview = z.infer<typeof ChangeRequestReviewSchema>;

export const ChangeRequestContributorSchema = z
  .object({
    user: UserSchema.describe('The user who edited the content of the change request'),
    updatedAt: TimestampSchema.describe('When the user last edited the content of the change request'),
    count: z.number().int().describe('How many revisions of the change request the user wrote'),
    actionType: z.literal('edit').describe('Always `edit`: the user edited the content'),
  })
  .describe('ChangeRequestUserContributor');
export type ChangeRequestContributor = z.infer<typeof ChangeRequestContributorSchema>;
