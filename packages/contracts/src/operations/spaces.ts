import { z } from 'zod';
import { DefaultLevelSchema, IdSchema, listOf, OrderSchema, PageQueryShape, RoleOrGuestSchema } from '../common.ts';
import { defineOperation } from '../operation.ts';
import {
  ContentPositionSchema,
  EmojiSchema,
  MemberSpacePermissionSchema,
  SpaceEditModeSchema,
  SpaceIconSchema,
  SpaceSchema,
  SpaceTitleSchema,
  SpaceVisibilitySchema,
} from '../schemas/space.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const spaceId = IdSchema.describe('The unique id of the space');
const tags = ['spaces'];

export const listSpaces = defineOperation({
  id: 'spaces.listInOrg',
  service: 'content',
  access: 'user',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(SpaceSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/spaces', status: 200, operationId: 'listSpacesInOrganizationById', summary: 'List the spaces of an organization the caller can see, in tree order', tags },
});

export const createSpace = defineOperation({
  id: 'spaces.create',
  service: 'content',
  access: 'user',
  input: z.object({
    organizationId,
    title: SpaceTitleSchema.optional(),
    emoji: EmojiSchema.optional(),
    parent: IdSchema.optional().describe('ID of a parent collection (the space goes last in it; at the top level when omitted)'),
    editMode: SpaceEditModeSchema.optional(),
  }),
  output: SpaceSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/spaces', status: 201, operationId: 'createSpace', summary: 'Create a space in an organization', tags },
});

export const getSpaceById = defineOperation({
  id: 'spaces.get',
  service: 'content',
  access: 'user',
  input: z.object({
    spaceId,
    shareKey: z.string().max(256).optional().describe('Share key resolving published URLs for share-link sites'),
  }),
  output: SpaceSchema,
  http: { method: 'GET', path: '/spaces/{spaceId}', status: 200, operationId: 'getSpaceById', summary: 'Get a space by its ID (a deleted space, until it is purged, carries `deletedAt`)', tags },
});

export const updateSpaceById = defineOperation({
  id: 'spaces.update',
  service: 'content',
  access: 'user',
  input: z
    .object({
      spaceId,
      title: SpaceTitleSchema.optional(),
      emoji: EmojiSchema.nullable().optional().describe('Emoji of the space (max 50); null removes it'),
      icon: SpaceIconSchema.nullable().optional().describe('URL of an icon image; null removes it'),
      editMode: SpaceEditModeSchema.optional(),
      defaultLevel: DefaultLevelSchema.optional(),
      visibility: SpaceVisibilitySchema.optional().describe('Who can read the published space; `in-collection` only for a space inside a collection'),
    })
    .refine((b) => b.emoji == null || b.icon == null, { message: 'give `emoji` or `icon`, not both', path: ['icon'] }),
  output: SpaceSchema,
  http: { method: 'PATCH', path: '/spaces/{spaceId}', status: 200, operationId: 'updateSpaceById', summary: "Update a space's title, icon or settings (space admins)", tags },
});

export const deleteSpaceById = defineOperation({
  id: 'spaces.delete',
  service: 'content',
  access: 'user',
  input: z.object({ spaceId }),
  output: z.void(),
  http: { method: 'DELETE', path: '/spaces/{spaceId}', status: 205, operationId: 'deleteSpaceById', summary: 'Delete a space: it can be restored for 7 days, then it is purged', tags },
});

export const restoreSpace = defineOperation({
  id: 'spaces.restore',
  service: 'content',
  access: 'user',
  input: z.object({ spaceId }),
  output: SpaceSchema,
  http: { method: 'POST', path: '/spaces/{spaceId}/restore', status: 200, operationId: 'restoreSpace', summary: 'Restore a space deleted within the last 7 days (412 after that)', tags },
});

export const duplicateSpace = defineOperation({
  id: 'spaces.duplicate',
  service: 'content',
  access: 'user',
  input: z.object({ spaceId }),
  output: SpaceSchema,
  http: { method: 'POST', path: '/spaces/{spaceId}/duplicate', status: 201, operationId: 'duplicateSpace', summary: 'Copy a space (content and settings) right after it, titled "Copy of <title>"', tags },
});

export const moveSpace = defineOperation({
  id: 'spaces.move',
  service: 'content',
  access: 'user',
  input: z
    .object({
      spaceId,
      parent: IdSchema.nullable().optional().describe('The unique id of the parent collection; null for the top level'),
      position: ContentPositionSchema.optional().describe('Where to move the space among its new siblings; at the end when omitted'),
    })
    .refine((b) => b.parent !== undefined || b.position !== undefined, { message: 'give `parent`, `position` or both', path: ['parent'] }),
  output: SpaceSchema,
  http: { method: 'POST', path: '/spaces/{spaceId}/move', status: 200, operationId: 'moveSpace', summary: 'Move a space to another collection and/or position', tags },
});

export const transferSpace = defineOperation({
  id: 'spaces.transfer',
  service: 'content',
  access: 'user',
  input: z.object({ spaceId, organization: IdSchema.describe('The unique id of the target organization') }),
  output: SpaceSchema,
  http: { method: 'POST', path: '/spaces/{spaceId}/transfer', status: 200, operationId: 'transferSpace', summary: 'Transfer a space and its content to another organization (admin in both)', tags },
});

export const listSpacesForOrganizationMember = defineOperation({
  id: 'spaces.listForMember',
  service: 'content',
  access: 'user',
  input: z.object({ organizationId, userId: IdSchema.describe('The unique id of the user'), ...PageQueryShape, order: OrderSchema }),
  output: listOf(MemberSpacePermissionSchema),
  http: {
    method: 'GET',
    path: '/orgs/{organizationId}/members/{userId}/spaces',
    status: 200,
    operationId: 'listSpacesForOrganizationMember',
    summary: 'List the spaces a member can access, with the member role on each (by creation date)',
    tags: ['members'],
  },
});

/**
 * org-admin → content: how many spaces each of these members can access (the same rule as
 * `GET /v1/orgs/{organizationId}/members/{userId}/spaces`), for `Member.spaces`.
 */
export const countMemberSpaces = defineOperation({
  id: 'spaces.countForMembers',
  service: 'content',
  access: 'internal',
  input: z.object({
    organizationId,
    members: z
      .array(z.object({ userId: IdSchema, role: RoleOrGuestSchema, teams: z.array(IdSchema).default([]) }))
      .max(1000)
      .describe('The members, with their organization role and teams'),
  }),
  output: z.object({ counts: z.record(z.string(), z.number().int()).describe('Spaces count by user id') }),
});
