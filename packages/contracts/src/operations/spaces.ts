import { z } from 'zod';
import { DefaultLevelSchema, IdSchema, listOf, OrderSchema, PageQueryShape } from '../common.ts';
import { openToReaders, operationsOf } from '../operation.ts';
import { MembersToCountSchema } from '../schemas/member.ts';
import { organizationId, spaceId, userId } from '../params.ts';
import {
  DeletedSpaceSchema,
  EmojiSchema,
  MemberSpacePermissionSchema,
  SpaceEditModeSchema,
  SpaceIconSchema,
  SpaceSchema,
  SpaceTitleSchema,
  SpaceVisibilitySchema,
} from '../schemas/space.ts';
import { MergeRulesSpaceInputSchema } from '../schemas/merge-rules.ts';
import { containerOps } from './containers.ts';

const op = operationsOf('content', { tags: ['spaces'] });

export const listSpaces = op({
  id: 'spaces.listInOrg',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(SpaceSchema),
  http: {
    route: 'GET /orgs/{organizationId}/spaces',
    operationId: 'listSpacesInOrganizationById',
    summary: 'List the spaces of an organization the caller can see, in tree order',
  },
});

export const createSpace = op({
  id: 'spaces.create',
  input: z.object({
    organizationId,
    title: SpaceTitleSchema.optional(),
    emoji: EmojiSchema.optional(),
    parent: IdSchema.optional().describe(
      'ID of a parent collection (the space goes last in it; at the top level when omitted)',
    ),
    editMode: SpaceEditModeSchema.optional(),
  }),
  output: SpaceSchema,
  http: {
    route: 'POST /orgs/{organizationId}/spaces',
    status: 201,
    operationId: 'createSpace',
    summary: 'Create a space in an organization',
  },
});

const spaces = containerOps(op, { noun: 'spaces', name: 'Space', param: { spaceId }, item: SpaceSchema });

/** A reader (published-content token) reads the spaces its site shows it too (see content's access policy). */
export const getSpaceById = openToReaders(
  spaces.get('Get a space by its ID (a deleted space, until it is purged, carries `deletedAt`)', {
    shareKey: z.string().max(256).optional().describe('Share key resolving published URLs for share-link sites'),
  }),
);

export const updateSpaceById = op({
  id: 'spaces.update',
  input: z
    .object({
      spaceId,
      title: SpaceTitleSchema.optional(),
      emoji: EmojiSchema.nullable().optional().describe('Emoji of the space (max 50); null removes it'),
      icon: SpaceIconSchema.nullable().optional().describe('URL of an icon image; null removes it'),
      editMode: SpaceEditModeSchema.optional(),
      defaultLevel: DefaultLevelSchema.optional(),
      visibility: SpaceVisibilitySchema.optional().describe(
        'Who can read the published space; `in-collection` only for a space inside a collection',
      ),
      mergeRules: MergeRulesSpaceInputSchema.optional().describe(
        "Rules a change request must meet to be merged; `inherit`: the organization's",
      ),
    })
    .refine((b) => b.emoji == null || b.icon == null, { message: 'give `emoji` or `icon`, not both', path: ['icon'] }),
  output: SpaceSchema,
  http: {
    route: 'PATCH /spaces/{spaceId}',
    operationId: 'updateSpaceById',
    summary: "Update a space's title, icon or settings (space admins)",
  },
});

export const deleteSpaceById = spaces.delete('Delete a space: it can be restored for 7 days, then it is purged');

export const restoreSpace = op({
  id: 'spaces.restore',
  input: z.object({ spaceId }),
  output: SpaceSchema,
  http: {
    route: 'POST /spaces/{spaceId}/restore',
    operationId: 'restoreSpace',
    summary: 'Restore a space deleted within the last 7 days (412 after that)',
  },
});

export const listDeletedSpaces = op({
  id: 'spaces.listDeletedInOrg',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(DeletedSpaceSchema),
  http: {
    route: 'GET /orgs/{organizationId}/trash/spaces',
    operationId: 'listDeletedSpacesInOrganization',
    summary:
      "Quire-only: list the organization's deleted spaces the caller may restore (a space's admins; the " +
      "organization's admins see all), the latest deleted first; a space deleted over 7 days ago is gone",
  },
});

export const duplicateSpace = op({
  id: 'spaces.duplicate',
  input: z.object({ spaceId }),
  output: SpaceSchema,
  http: {
    route: 'POST /spaces/{spaceId}/duplicate',
    status: 201,
    operationId: 'duplicateSpace',
    summary: 'Copy a space (content and settings) right after it, titled "Copy of <title>"',
  },
});

export const moveSpace = spaces.move('Move a space to another collection and/or position');

export const transferSpace = spaces.transfer(
  'Transfer a space and its content to another organization (admin in both)',
);

export const listSpacesForOrganizationMember = op({
  id: 'spaces.listForMember',
  input: z.object({ organizationId, userId, ...PageQueryShape, order: OrderSchema }),
  output: listOf(MemberSpacePermissionSchema),
  http: {
    route: 'GET /orgs/{organizationId}/members/{userId}/spaces',
    operationId: 'listSpacesForOrganizationMember',
    summary: 'List the spaces a member can access, with the member role on each (by creation date)',
    tags: ['members'],
  },
});

/**
 * org-admin → content: how many spaces each of these members can access (the same rule as
 * `GET /v1/orgs/{organizationId}/members/{userId}/spaces`), for `Member.spaces`.
 */
export const countMemberSpaces = op({
  id: 'spaces.countForMembers',
  access: 'internal',
  input: z.object({
    organizationId,
    members: MembersToCountSchema,
  }),
  output: z.object({ counts: z.record(z.string(), z.number().int()).describe('Spaces count by user id') }),
});
