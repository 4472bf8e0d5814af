import { z } from 'zod';
import { TimestampSchema, UrlSchema } from '../common.ts';
import { ChangeRequestMergeRulesSchema } from './merge-rules.ts';
import { UserSchema } from './user.ts';
import { objectAndId } from './shapes.ts';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export const ChangeRequestStatusSchema = z.enum(CHANGE_REQUEST_STATUSES).describe('Status of the change request');
export type ChangeRequestStatus = z.infer<typeof ChangeRequestStatusSchema>;
/** What PATCH may set: `merged` is reached only through the merge endpoint. */
export const SettableChangeRequestStatusSchema = z
  .enum(['draft', 'open', 'archived'])
  .describe('New status: draft, open or archived (merged only through merge)');
export const ChangeRequestSubjectSchema = z.string().max(100).describe('Subject of the change request (max 100)');

export const ChangeRequestSchema = z
  .object({
    ...objectAndId('change-request', 'change request'),
    number: z.number().int().describe('Incremental identifier of the change request in its space'),
    status: ChangeRequestStatusSchema,
    subject: z.string().describe('Subject of the change request'),
    createdBy: UserSchema.describe('Who created the change request'),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    mergedBy: UserSchema.optional().describe('Who merged the change request (once merged)'),
    mergedAt: TimestampSchema.optional().describe('When the change request was merged (once merged)'),
    space: z.string().describe('ID of the space of the change request'),
    revision: z.string().describe('ID of the active revision of the change request'),
    revisionInitial: z.string().describe('ID of the space revision the change request was created from'),
    revisionMergedAncestor: z
      .string()
      .optional()
      .describe('ID of the main revision the change request was last updated from'),
    revisionMerged: z.string().optional().describe('ID of the revision resulting from the merge (once merged)'),
    comments: z.number().int().describe('Count of opened comments on the change request'),
    outdated: z
      .boolean()
      .describe('True when the main content moved since the change request was created or last updated'),
    conflicting: z
      .boolean()
      .describe(
        'True while the change request conflicts with the main content: a merge found conflicts (run update), or pages ' +
          'hold conflict blocks left by an update (edit them so that none remains); `.../changes` marks those pages',
      ),
    mergeRules: ChangeRequestMergeRulesSchema.optional().describe(
      'The merge rules in force and whether the caller may merge now (Quire extension; only when fetching one change request)',
    ),
    urls: z.object({
      app: UrlSchema.describe('URL of the change request in the application'),
      location: UrlSchema.describe('URL of the change request in the API'),
    }),
  })
  .describe('ChangeRequest');
export type ChangeRequest = z.infer<typeof ChangeRequestSchema>;
