import { z } from 'zod';
import { DefaultLevelSchema, IdSchema, listOf, PageQueryShape, queryBoolean } from '../common.ts';
import { defineOperation } from '../operation.ts';
import { CollectionDescriptionSchema, CollectionSchema, CollectionTitleSchema } from '../schemas/collection.ts';
import { ContentPositionSchema, SpaceSchema } from '../schemas/space.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const collectionId = IdSchema.describe('The unique id of the collection');
const tags = ['collections'];

export const listCollectionsInOrganizationById = defineOperation({
  id: 'collections.listInOrg',
  service: 'content',
  access: 'user',
  input: z.object({
    organizationId,
    ...PageQueryShape,
    nested: queryBoolean('If true (default), nested collections are listed too; if false, only top-level collections').optional(),
  }),
  output: listOf(CollectionSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/collections', status: 200, operationId: 'listCollectionsInOrganizationById', summary: 'List the collections of an organization the caller can see, in tree order', tags },
});

export const createCollection = defineOperation({
  id: 'collections.create',
  service: 'content',
  access: 'user',
  input: z.object({
    organizationId,
    title: CollectionTitleSchema.optional(),
    parent: IdSchema.optional().describe('ID of a parent collection (the new collection goes last in it; at the top level when omitted)'),
  }),
  output: CollectionSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/collections', status: 201, operationId: 'createCollection', summary: 'Create a collection', tags },
});

export const getCollectionById = defineOperation({
  id: 'collections.get',
  service: 'content',
  access: 'user',
  input: z.object({ collectionId }),
  output: CollectionSchema,
  http: { method: 'GET', path: '/collections/{collectionId}', status: 200, operationId: 'getCollectionById', summary: 'Get a collection by its ID', tags },
});

export const updateCollectionById = defineOperation({
  id: 'collections.update',
  service: 'content',
  access: 'user',
  input: z.object({
    collectionId,
    title: CollectionTitleSchema.optional(),
    description: CollectionDescriptionSchema.optional(),
    defaultLevel: DefaultLevelSchema.optional(),
  }),
  output: CollectionSchema,
  http: { method: 'PATCH', path: '/collections/{collectionId}', status: 200, operationId: 'updateCollectionById', summary: 'Update the title, description or default level of a collection (collection admins)', tags },
});

export const deleteCollectionById = defineOperation({
  id: 'collections.delete',
  service: 'content',
  access: 'user',
  input: z.object({ collectionId }),
  output: z.void(),
  http: {
    method: 'DELETE',
    path: '/collections/{collectionId}',
    status: 205,
    operationId: 'deleteCollectionById',
    summary: "Delete a collection; its spaces and sub-collections move up to the collection's parent",
    tags,
  },
});

export const listSpacesInCollectionById = defineOperation({
  id: 'collections.listSpaces',
  service: 'content',
  access: 'user',
  input: z.object({ collectionId, ...PageQueryShape }),
  output: listOf(SpaceSchema),
  http: { method: 'GET', path: '/collections/{collectionId}/spaces', status: 200, operationId: 'listSpacesInCollectionById', summary: 'List the spaces directly in a collection, in tree order', tags },
});

export const moveCollection = defineOperation({
  id: 'collections.move',
  service: 'content',
  access: 'user',
  input: z
    .object({
      collectionId,
      parent: IdSchema.nullable().optional().describe('The unique id of the parent collection; null for the top level'),
      position: ContentPositionSchema.optional().describe('Where to move the collection among its new siblings; at the end when omitted'),
    })
    .refine((b) => b.parent !== undefined || b.position !== undefined, { message: 'give `parent`, `position` or both', path: ['parent'] }),
  output: CollectionSchema,
  http: { method: 'POST', path: '/collections/{collectionId}/move', status: 200, operationId: 'moveCollection', summary: 'Move a collection into another collection and/or position', tags },
});

export const transferCollection = defineOperation({
  id: 'collections.transfer',
  service: 'content',
  access: 'user',
  input: z.object({ collectionId, organization: IdSchema.describe('The unique id of the target organization') }),
  output: CollectionSchema,
  http: {
    method: 'POST',
    path: '/collections/{collectionId}/transfer',
    status: 200,
    operationId: 'transferCollection',
    summary: 'Transfer a collection with its sub-collections and their spaces to another organization (admin in both)',
    tags,
  },
});
