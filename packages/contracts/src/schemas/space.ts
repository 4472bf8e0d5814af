import { z } from 'zod';
import { DefaultLevelSchema, TimestampSchema, UrlSchema } from '../common.ts';

export const SpaceVisibilitySchema = z
  .enum(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'])
  .describe('Who can read the published space');
export const SpaceEditModeSchema = z.enum(['live', 'locked']).describe('`live`: edits go directly; `locked`: all edits locked');
export const SpaceTitleSchema = z.string().max(50).describe('Title of the space (max 50)');
export const EmojiSchema = z.string().max(50).describe('Unicode codepoint or character of the emoji (max 50)');

export const SpacePermissionsSchema = z
  .object({
    view: z.boolean().describe('Can the caller view the space content'),
    access: z.boolean().describe('Can the caller access the space in the application'),
    admin: z.boolean().describe('Can the caller manage the space'),
    viewInviteLinks: z.boolean().describe('Can the caller view invite links'),
    edit: z.boolean().describe('Can the caller edit the content'),
    triggerGitSync: z.boolean().describe('Can the caller trigger a git sync'),
    comment: z.boolean().describe('Can the caller comment'),
    merge: z.boolean().describe('Can the caller merge change requests'),
    review: z.boolean().describe('Can the caller review change requests'),
  })
  .describe('What the caller may do with the space');
export type SpacePermissions = z.infer<typeof SpacePermissionsSchema>;

export const SpaceSchema = z
  .object({
    object: z.literal('space').describe('Always `space`'),
    id: z.string().describe('Unique identifier of the space'),
    title: z.string().describe('Title of the space'),
    emoji: z.string().describe('Emoji of the space, empty when none'),
    visibility: SpaceVisibilitySchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    deletedAt: TimestampSchema.optional().describe('When the space was deleted; present only on deleted spaces'),
    editMode: SpaceEditModeSchema.optional(),
    urls: z.object({
      location: UrlSchema.describe('URL of the space in the API'),
      app: UrlSchema.describe('URL of the space in the application'),
      published: UrlSchema.optional().describe('URL of the published space, when not private'),
      public: UrlSchema.optional().describe('URL of the public space, when public'),
      icon: UrlSchema.optional().describe('URL of the space icon'),
    }),
    organization: z.string().describe('ID of the organization owning the space'),
    parent: z.string().optional().describe('ID of the parent collection'),
    revision: z.string().describe('ID of the active revision'),
    defaultLevel: DefaultLevelSchema,
    comments: z.number().int().describe('Count of opened comments'),
    changeRequests: z.number().int().describe('Total count of change requests'),
    changeRequestsOpen: z.number().int().describe('Count of open change requests'),
    changeRequestsDraft: z.number().int().describe('Count of draft change requests'),
    permissions: SpacePermissionsSchema,
  })
  .describe('Space');
export type Space = z.infer<typeof SpaceSchema>;
