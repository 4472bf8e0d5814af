import { z } from 'zod';
import { TimestampSchema, UrlSchema } from '../common.ts';
import { UserSchema } from './user.ts';
import { permissionsOf } from './shapes.ts';

export const MAX_COMMENT_MARKDOWN = 10_000;
/** How many emojis one update may add or remove. */
export const MAX_REACTIONS_PER_UPDATE = 20;

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export const CommentStatusSchema = z.enum(COMMENT_STATUSES).describe('Status of the comment: `open` or `resolved`');
export type CommentStatus = z.infer<typeof CommentStatusSchema>;
export const CommentStatusFilterSchema = z
  .enum(['all', 'open', 'resolved'])
  .default('all')
  .describe('Which comments to list: `all` (default), `open` or `resolved`');

/** One emoji of Unicode's recommended set (a flag, a keycap, a skin tone, a ZWJ family count as one). */
const ONE_EMOJI = /^\p{RGI_Emoji}$/v;
export const ReactionEmojiSchema = z
  .string()
  .min(1)
  .max(32)
  .refine((s) => ONE_EMOJI.test(s), 'not an emoji')
  .describe('One emoji (Unicode RGI emoji, e.g. 👍)');

const MarkdownSchema = z
  .string()
  .max(MAX_COMMENT_MARKDOWN)
  .describe(`Markdown of the body (max ${MAX_COMMENT_MARKDOWN})`);
/** The body of a comment or reply as sent: `{ markdown }` (JSON documents are not supported yet). */
export const CommentBodyInputSchema = z
  .object({ markdown: MarkdownSchema })
  .strict()
  .describe('Content body: `{ markdown }`');

export const CommentFormatSchema = z
  .enum(['document', 'markdown'])
  .optional()
  .describe('Format of the body: `markdown` (`{markdown}`, default) or `document` (the JSON document)');

export const ReactionSchema = z
  .object({
    emoji: z.string().describe('The emoji'),
    count: z.number().int().describe('How many users reacted with it'),
    users: z
      .array(z.object({ user: UserSchema, reactedAt: TimestampSchema.describe('When the user reacted') }))
      .describe('Who reacted, first first'),
  })
  .describe('Reaction');
export type Reaction = z.infer<typeof ReactionSchema>;

export const CommentBodySchema = z
  .union([
    z.object({ markdown: z.string().describe('Markdown of the body') }),
    z
      .object({ object: z.literal('document'), nodes: z.array(z.record(z.string(), z.unknown())) })
      .catchall(z.unknown())
      .describe('GitBook’s JSON document'),
  ])
  .describe('Content body: `{ markdown }`, or the JSON document with `format=document`');

export const CommentPermissionsSchema = permissionsOf('What the caller may do', {
  view: 'Can the caller view it',
  edit: 'Can the caller edit it (its author)',
  reply: 'Can the caller reply and react',
  delete: 'Can the caller delete it (its author, or a space admin)',
});

export const MAX_COMMENT_QUOTE = 2_000;
/** Quire-only: the text a comment is about, selected in its node (GitBook's Comment has no field for it). */
export const CommentQuoteSchema = z
  .object({
    text: z
      .string()
      .min(1)
      .max(MAX_COMMENT_QUOTE)
      .describe(`The text selected, as it read when commented on (max ${MAX_COMMENT_QUOTE})`),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Where the text starts in the plain text of the node (in UTF-16 code units), if known'),
  })
  .strict()
  .describe('Quire-only: the text of the node the comment is about (a selection); needs `node`');
export type CommentQuote = z.infer<typeof CommentQuoteSchema>;

export const CommentTargetSchema = z
  .object({
    space: z.string().describe('The space'),
    revision: z.string().describe('The revision commented on'),
    changeRequest: z.string().optional().describe('The change request, for a comment on a change request'),
    node: z
      .object({ id: z.string().describe('Id of the node') })
      .optional()
      .describe('The node commented on, as given'),
    quote: CommentQuoteSchema.optional(),
    page: z
      .object({
        id: z.string(),
        title: z.string(),
        emoji: z.string().optional(),
        icon: z.string().optional(),
        createdAt: TimestampSchema.optional(),
        updatedAt: TimestampSchema.optional(),
        path: z.string().optional().describe('Path of the page (absent once it is deleted)'),
        outdated: z.boolean().describe('True when the page changed or was deleted since the comment'),
      })
      .optional()
      .describe('The page commented on'),
  })
  .describe('What the comment is about');

const common = {
  id: z.string().describe('Unique identifier'),
  postedBy: UserSchema.describe('Author'),
  postedAt: TimestampSchema.describe('When it was posted'),
  editedAt: TimestampSchema.optional().describe('When its body was last edited'),
  reactions: z.array(ReactionSchema).describe('Reactions, in order of first reaction'),
  body: CommentBodySchema,
  urls: z.object({ location: UrlSchema.describe('URL in the API') }),
  permissions: CommentPermissionsSchema,
};

export const CommentSchema = z
  .object({
    object: z.literal('comment').describe('Always `comment`'),
    ...common,
    replies: z.number().int().describe('Count of replies'),
    target: CommentTargetSchema,
    status: CommentStatusSchema,
    resolvedAt: TimestampSchema.optional().describe('When it was resolved'),
    resolvedBy: UserSchema.optional().describe('Who resolved it'),
  })
  .describe('Comment');
export type Comment = z.infer<typeof CommentSchema>;

export const CommentReplySchema = z
  .object({ object: z.literal('comment-reply').describe('Always `comment-reply`'), ...common })
  .describe('CommentReply');
export type CommentReply = z.infer<typeof CommentReplySchema>;
