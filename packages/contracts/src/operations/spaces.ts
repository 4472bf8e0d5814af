import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape, RoleOrGuestSchema } from '../common.ts';
import { defineOperation } from '../operation.ts';
import { EmojiSchema, SpaceEditModeSchema, SpaceSchema, SpaceTitleSchema } from '../schemas/space.ts';

const organizationId = IdSchema.describe('The unique id of the organization');
const spaceId = IdSchema.describe('The unique id of the space');

export const listSpaces = defineOperation({
  id: 'spaces.listInOrg',
  service: 'content',
  access: 'user',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(SpaceSchema),
  http: { method: 'GET', path: '/orgs/{organizationId}/spaces', status: 200, operationId: 'listSpacesInOrganizationById', summary: 'List the spaces of an organization the caller can see', tags: ['spaces'] },
});

export const createSpace = defineOperation({
  id: 'spaces.create',
  service: 'content',
  access: 'user',
  input: z.object({
    organizationId,
    title: SpaceTitleSchema.optional(),
    emoji: EmojiSchema.optional(),
    parent: IdSchema.optional().describe('ID of a parent collection'),
    editMode: SpaceEditModeSchema.optional(),
  }),
  output: SpaceSchema,
  http: { method: 'POST', path: '/orgs/{organizationId}/spaces', status: 201, operationId: 'createSpace', summary: 'Create a space in an organization', tags: ['spaces'] },
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
  http: { method: 'GET', path: '/spaces/{spaceId}', status: 200, operationId: 'getSpaceById', summary: 'Get a space by its ID', tags: ['spaces'] },
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
