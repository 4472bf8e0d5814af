import { z } from 'zod';
import { DefaultLevelSchema, TimestampSchema } from '../common.ts';
import { UserSchema } from './user.ts';
import { apiAndAppUrls, objectAndId, permissionsOf } from './shapes.ts';

export const CollectionTitleSchema = z.string().max(50).describe('Title of the collection (max 50)');
export const CollectionDescriptionSchema = z.string().max(100).describe('Description of the collection (max 100)');

export const CollectionPermissionsSchema = permissionsOf('What the caller may do with the collection', {
  view: 'Can the caller view the collection',
  admin: 'Can the caller edit the title and description, move and delete the collection',
  viewInviteLinks: 'Can the caller view the invite links of the collection',
  create: 'Can the caller create spaces and collections in this collection',
});
export type CollectionPermissions = z.infer<typeof CollectionPermissionsSchema>;

export const CollectionSchema = z
  .object({
    ...objectAndId('collection', 'collection'),
    title: z.string().describe('Title of the collection'),
    description: z.string().optional().describe('Description of the collection, when set'),
    organization: z.string().describe('ID of the organization owning the collection'),
    parent: z.string().optional().describe('ID of the parent collection, if any'),
    defaultLevel: DefaultLevelSchema,
    urls: apiAndAppUrls('collection'),
    permissions: CollectionPermissionsSchema,
  })
  .describe('Collection');
export type Collection = z.infer<typeof CollectionSchema>;

/**
 * A collection in the trash (Quire-only): a Collection (its `parent` the collection it goes back into, absent when
 * that one is gone and it goes back to the top level) with when and by whom it was deleted, when it goes for good
 * and what its delete moved up to the parent.
 */
export const DeletedCollectionSchema = CollectionSchema.extend({
  deletedAt: TimestampSchema.describe('When the collection was deleted'),
  deletedBy: UserSchema.optional().describe('Who deleted the collection, when known'),
  purgeAt: TimestampSchema.describe(
    'When the collection leaves the trash for good (7 days after its deletion); it can be restored until then',
  ),
  movedSpaces: z
    .number()
    .int()
    .describe('How many spaces its delete moved up to its parent (a restore moves back those still there)'),
  movedCollections: z
    .number()
    .int()
    .describe('How many sub-collections its delete moved up to its parent (a restore moves back those still there)'),
}).describe('DeletedCollection');
export type DeletedCollection = z.infer<typeof DeletedCollectionSchema>;
