import { z } from 'zod';
import { DefaultLevelSchema, IdSchema, listOf, PageQueryShape, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, collectionId } from '../params.ts';
import {
  CollectionDescriptionSchema,
  CollectionSchema,
  CollectionTitleSchema,
  DeletedCollectionSchema,
} from '../schemas/collection.ts';
import { SpaceSchema } from '../schemas/space.ts';
import { containerOps } from './containers.ts';

const op = operationsOf('content', { tags: ['collections'] });

export const listCollectionsInOrganizationById = op({
  id: 'collections.listInOrg',
  input: z.object({
    organizationId,
    ...PageQueryShape,
    nested: queryBoolean(
      'If true (default), nested collections are listed too; if false, only top-level collections',
    ).optional(),
  }),
  output: listOf(CollectionSchema),
  http: {
    route: 'GET /orgs/{organizationId}/collections',
    operationId: 'listCollectionsInOrganizationById',
    summary: 'List the collections of an organization the caller can see, in tree order',
  },
});

export const createCollection = op({
  id: 'collections.create',
  input: z.object({
    organizationId,
    title: CollectionTitleSchema.optional(),
    parent: IdSchema.optional().describe(
      'ID of a parent collection (the new collection goes last in it; at the top level when omitted)',
    ),
  }),
  output: CollectionSchema,
  http: {
    route: 'POST /orgs/{organizationId}/collections',
    status: 201,
    operationId: 'createCollection',
    summary: 'Create a collection',
  },
});

const collections = containerOps(op, {
  noun: 'collections',
  name: 'Collection',
  param: { collectionId },
  item: CollectionSchema,
});

export const getCollectionById = collections.get('Get a collection by its ID');

export const updateCollectionById = collections.update(
  'Update the title, description or default level of a collection (collection admins)',
  {
    title: CollectionTitleSchema.optional(),
    description: CollectionDescriptionSchema.optional(),
    defaultLevel: DefaultLevelSchema.optional(),
  },
);

export const deleteCollectionById = collections.delete(
  "Delete a collection; its spaces and sub-collections move up to the collection's parent. It can be restored for 7 days",
);

export const restoreCollection = op({
  id: 'collections.restore',
  input: z.object({ collectionId }),
  output: CollectionSchema,
  http: {
    route: 'POST /collections/{collectionId}/restore',
    operationId: 'restoreCollection',
    summary:
      'Quire-only: restore a collection deleted within the last 7 days (412 after that) with its id, title, ' +
      'level, permissions and place (the top level when its parent is gone); the spaces and sub-collections its ' +
      'delete moved up go back into it when they are still there. Collection admins; `create` where it goes',
  },
});

export const listDeletedCollections = op({
  id: 'collections.listDeletedInOrg',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(DeletedCollectionSchema),
  http: {
    route: 'GET /orgs/{organizationId}/trash/collections',
    operationId: 'listDeletedCollectionsInOrganization',
    summary:
      "Quire-only: list the organization's deleted collections the caller may restore (a collection's admins; the " +
      "organization's admins see all), the latest deleted first; a collection deleted over 7 days ago is gone",
  },
});

export const listSpacesInCollectionById = op({
  id: 'collections.listSpaces',
  input: z.object({ collectionId, ...PageQueryShape }),
  output: listOf(SpaceSchema),
  http: {
    route: 'GET /collections/{collectionId}/spaces',
    operationId: 'listSpacesInCollectionById',
    summary: 'List the spaces directly in a collection, in tree order',
  },
});

export const moveCollection = collections.move('Move a collection into another collection and/or position');

export const transferCollection = collections.transfer(
  'Transfer a collection with its sub-collections and their spaces to another organization (admin in both)',
);
