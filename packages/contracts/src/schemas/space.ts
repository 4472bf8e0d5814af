import { z } from 'zod';
import { DefaultLevelSchema, IdSchema, RoleSchema, TimestampSchema, UrlSchema } from '../common.ts';
import { MergeRulesSpaceConfigurationSchema } from './merge-rules.ts';
import { apiAndAppUrls, objectAndId, permissionsOf } from './shapes.ts';
import { UserSchema } from './user.ts';

export const SpaceVisibilitySchema = z
  .enum(['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'])
  .describe('Who can read the published space');
export type SpaceVisibility = z.infer<typeof SpaceVisibilitySchema>;
export const SpaceEditModeSchema = z
  .enum(['live', 'locked'])
  .describe('`live`: edits go directly; `locked`: all edits locked');
export type SpaceEditMode = z.infer<typeof SpaceEditModeSchema>;
export const SpaceTitleSchema = z.string().max(50).describe('Title of the space (max 50)');
export const EmojiSchema = z.string().max(50).describe('Unicode codepoint or character of the emoji (max 50)');
export const SpaceIconSchema = z.url().max(2048).describe('URL of an image used as the space icon');

export const SpacePermissionsSchema = permissionsOf('What the caller may do with the space', {
  view: 'Can the caller view the space content',
  access: 'Can the caller access the space in the application',
  admin: 'Can the caller manage the space',
  viewInviteLinks: 'Can the caller view invite links',
  edit: 'Can the caller edit the content',
  triggerGitSync: 'Can the caller trigger a git sync',
  comment: 'Can the caller comment',
  merge: 'Can the caller merge change requests',
  review: 'Can the caller review change requests',
});
export type SpacePermissions = z.infer<typeof SpacePermissionsSchema>;

export const SpaceSchema = z
  .object({
    ...objectAndId('space', 'space'),
    title: z.string().describe('Title of the space'),
    emoji: z.string().describe('Emoji of the space, empty when none'),
    visibility: SpaceVisibilitySchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    deletedAt: TimestampSchema.optional().describe('When the space was deleted; present only on deleted spaces'),
    editMode: SpaceEditModeSchema.optional(),
    urls: apiAndAppUrls('space', {
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
    mergeRules: MergeRulesSpaceConfigurationSchema.optional().describe(
      "The space's merge rules: its own, `none`, or `inherit` (the organization's)",
    ),
    permissions: SpacePermissionsSchema,
  })
  .describe('Space');
export type Space = z.infer<typeof SpaceSchema>;

/** A space in the trash (Quire-only): a Space with when and by whom it was deleted, and when it goes for good. */
export const DeletedSpaceSchema = SpaceSchema.extend({
  deletedAt: TimestampSchema.describe('When the space was deleted'),
  deletedBy: UserSchema.optional().describe('Who deleted the space, when known'),
  purgeAt: TimestampSchema.describe(
    'When the space will be removed for good (7 days after its deletion); it can be restored until then',
  ),
}).describe('DeletedSpace');
export type DeletedSpace = z.infer<typeof DeletedSpaceSchema>;

/** A sibling in the content tree, for `position` (spaces and collections are ordered together in a parent). */
export const SpacePointerSchema = z
  .object({ type: z.literal('space'), space: IdSchema.describe('Unique identifier of the space') })
  .describe('SpacePointer');
export const CollectionPointerSchema = z
  .object({ type: z.literal('collection'), collection: IdSchema.describe('Unique identifier of the collection') })
  .describe('CollectionPointer');
export const ContentPointerSchema = z.discriminatedUnion('type', [SpacePointerSchema, CollectionPointerSchema]);
export type ContentPointer = z.infer<typeof ContentPointerSchema>;

/** Where to insert an item among its siblings: before or after one of them (exactly one of the two). */
export const ContentPositionSchema = z
  .object({
    before: ContentPointerSchema.optional().describe('Insert just before this sibling'),
    after: ContentPointerSchema.optional().describe('Insert just after this sibling'),
  })
  .refine((p) => (p.before === undefined) !== (p.after === undefined), {
    message: 'give exactly one of `before` or `after`',
  })
  .describe('Position at which to insert an item; at the end of its parent when omitted');
export type ContentPosition = z.infer<typeof ContentPositionSchema>;

/** The input of `POST …/move` of a space or a collection: a new parent, a new position among siblings, or both. */
export const moveContentInput = <S extends z.ZodRawShape>(where: S, what: 'space' | 'collection') =>
  z
    .object({
      ...where,
      parent: IdSchema.nullable().optional().describe('The unique id of the parent collection; null for the top level'),
      position: ContentPositionSchema.optional().describe(
        `Where to move the ${what} among its new siblings; at the end when omitted`,
      ),
    })
    .refine(
      ({ parent, position }: { parent?: unknown; position?: unknown }) =>
        parent !== undefined || position !== undefined,
      {
        message: 'give `parent`, `position` or both',
        path: ['parent'],
      },
    );

/** A space a member can access, with the member's role on it. */
export const MemberSpacePermissionSchema = z
  .object({
    permission: RoleSchema.describe('The role of the member on the space'),
    space: SpaceSchema,
  })
  .describe('MemberContentPermission');
export type MemberSpacePermission = z.infer<typeof MemberSpacePermissionSchema>;
