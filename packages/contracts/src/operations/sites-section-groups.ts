import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import {
  SiteIconSchema,
  SiteSectionGroupPositionSchema,
  SiteSectionGroupSchema,
  SiteSectionGroupTitleSchema,
} from '../schemas/site.ts';
import { deleteStructureItem, moveStructureItem } from './sites-structure-items.ts';
import { siteId, siteSectionGroupId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['sites'] });

/** Quire has no drafts: a group is live; `draft: true` is refused (400). */
const draft = z.literal(false).optional().describe('Whether the group is a draft: only `false` (Quire has no drafts)');

export const listSiteSectionGroups = op({
  id: 'siteSectionGroups.list',
  input: z.object({ organizationId, siteId, ...PageQueryShape }),
  output: listOf(SiteSectionGroupSchema),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/section-groups',
    operationId: 'listSiteSectionGroups',
    summary: 'List the section groups of a site, in structure order',
  },
});

export const addSectionGroupToSite = op({
  id: 'siteSectionGroups.create',
  input: z.object({
    organizationId,
    siteId,
    title: SiteSectionGroupTitleSchema,
    icon: SiteIconSchema.nullable().optional(),
    sections: z
      .array(IdSchema)
      .max(200)
      .optional()
      .describe('IDs of sections of the site to move into the group, in this order'),
    parent: IdSchema.optional().describe(
      'ID of the section group to nest the group in; the root of the site when absent',
    ),
    draft,
  }),
  output: SiteSectionGroupSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/section-groups',
    status: 201,
    operationId: 'addSectionGroupToSite',
    summary: 'Add a section group to a site, last at its level',
  },
});

export const updateSiteSectionGroupById = op({
  id: 'siteSectionGroups.update',
  input: z.object({
    organizationId,
    siteId,
    siteSectionGroupId,
    title: SiteSectionGroupTitleSchema.optional(),
    icon: SiteIconSchema.nullable().optional().describe('Name of the icon (max 50); null removes it'),
    draft,
    parentSectionGroupId: IdSchema.nullable()
      .optional()
      .describe('ID of the section group to move the group into (last there); null moves it to the root of the site'),
  }),
  output: SiteSectionGroupSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
    operationId: 'updateSiteSectionGroupById',
    summary: 'Update a section group of a site',
  },
});

const group = {
  noun: 'siteSectionGroups',
  name: 'SiteSectionGroup',
  path: 'section-groups/{siteSectionGroupId}',
  param: { siteSectionGroupId },
  schema: SiteSectionGroupSchema,
  position: SiteSectionGroupPositionSchema,
} as const;

export const deleteSiteSectionGroupById = deleteStructureItem(
  group,
  'Delete a section group: its sections and groups take its place in its parent',
);
export const moveSiteSectionGroup = moveStructureItem(
  group,
  'Move a section group among the sections and groups of its level (deprecated: use sortSiteStructure)',
);
