import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import {
  SiteConditionSchema,
  SiteIconSchema,
  SitePathSchema,
  SiteSectionDescriptionSchema,
  SiteSectionGroupSchema,
  SiteSectionPositionSchema,
  SiteSectionSchema,
  SiteSectionTitleSchema,
  SiteSpacePositionSchema,
  SiteSpaceSchema,
  SiteStructurePointerSchema,
  SiteStructurePositionSchema,
  SiteStructureSchema,
} from '../schemas/site.ts';
import { shareKey, siteId, siteSectionId, siteSpaceId } from './sites-params.ts';
import { deleteStructureItem, moveStructureItem } from './sites-structure-items.ts';

const op = operationsOf('sites', { tags: ['sites'] });

const condition = SiteConditionSchema.nullable()
  .optional()
  .describe('Expression deciding whether the item is shown (1..1024); unset keeps it, null removes it');

export const getSiteStructure = op({
  id: 'siteStructures.get',
  input: z.object({ organizationId, siteId, shareKey }),
  output: SiteStructureSchema,
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/structure',
    operationId: 'getSiteStructure',
    summary: 'The structure of a site: its sections with their site spaces, or its site spaces',
  },
});

export const sortSiteStructure = op({
  id: 'siteStructures.sort',
  input: z.object({
    organizationId,
    siteId,
    item: SiteStructurePointerSchema.describe('The site space or section to move'),
    position: SiteStructurePositionSchema.optional(),
  }),
  output: z
    .union([SiteSpaceSchema, SiteSectionSchema, SiteSectionGroupSchema])
    .describe('SiteStructureItem: the moved item'),
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/structure/sort',
    operationId: 'sortSiteStructure',
    summary: 'Order a site space among the site spaces of its parent, or a section among the sections',
  },
});

export const listSiteSections = op({
  id: 'siteSections.list',
  input: z.object({ organizationId, siteId, shareKey, ...PageQueryShape }),
  output: listOf(SiteSectionSchema),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/sections',
    operationId: 'listSiteSections',
    summary: 'List the sections of a site, in order',
  },
});

export const addSectionToSite = op({
  id: 'siteSections.create',
  input: z.object({
    organizationId,
    siteId,
    spaceId: IdSchema.describe('ID of a space of the organization: the section holds it as its first site space'),
    title: SiteSectionTitleSchema.nullable()
      .optional()
      .describe('Title of the section (2..128); the space title when absent'),
    icon: SiteIconSchema.nullable().optional(),
    siteSectionGroupId: IdSchema.optional().describe('ID of the section group to create the section in (last there)'),
  }),
  output: SiteSectionSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/sections',
    status: 201,
    operationId: 'addSectionToSite',
    summary: 'Add a section to a site, with a space as its first site space',
  },
});

export const updateSiteSectionById = op({
  id: 'siteSections.update',
  input: z.object({
    organizationId,
    siteId,
    siteSectionId,
    title: SiteSectionTitleSchema.optional(),
    path: SitePathSchema.optional().describe('Path of the section on the site (1..100, unique among the sections)'),
    defaultSiteSpace: IdSchema.optional().describe('ID of a site space of this section to make its default'),
    condition,
    icon: SiteIconSchema.nullable().optional().describe('Name of the icon (max 50); null removes it'),
    description: SiteSectionDescriptionSchema.nullable().optional().describe('Description (max 256); null removes it'),
    siteSectionGroupId: IdSchema.nullable()
      .optional()
      .describe('ID of the section group to move the section into (last there); null moves it to the root of the site'),
  }),
  output: SiteSectionSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
    operationId: 'updateSiteSectionById',
    summary: 'Update a section of a site',
  },
});

const section = {
  noun: 'siteSections',
  name: 'SiteSection',
  path: 'sections/{siteSectionId}',
  param: { siteSectionId },
  schema: SiteSectionSchema,
  position: SiteSectionPositionSchema,
} as const;

export const deleteSiteSectionById = deleteStructureItem(section, 'Delete a section and its site spaces');
export const moveSiteSection = moveStructureItem(section, 'Move a section (deprecated: use sortSiteStructure)');

export const listSiteSpaces = op({
  id: 'siteSpaces.list',
  input: z.object({
    organizationId,
    siteId,
    shareKey,
    ...PageQueryShape,
    default: queryBoolean('true: only the default site space; false: only the others; absent: all').optional(),
  }),
  output: listOf(SiteSpaceSchema),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/site-spaces',
    operationId: 'listSiteSpaces',
    summary: 'List the site spaces of a site, in structure order',
  },
});

export const addSpaceToSite = op({
  id: 'siteSpaces.add',
  input: z.object({
    organizationId,
    siteId,
    spaceId: IdSchema.describe('ID of a space of the organization'),
    sectionId: IdSchema.optional().describe(
      'ID of the section to add the space to; the default section when absent, or the root when the site has no section',
    ),
  }),
  output: SiteSpaceSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/site-spaces',
    status: 201,
    operationId: 'addSpaceToSite',
    summary: 'Add a space to a site',
  },
});

export const updateSiteSpaceById = op({
  id: 'siteSpaces.update',
  input: z.object({
    organizationId,
    siteId,
    siteSpaceId,
    path: SitePathSchema.optional().describe('Path of the site space (1..100, unique within its section or the root)'),
    condition,
    spaceId: IdSchema.optional().describe('The space the site space shows; unset keeps it'),
  }),
  output: SiteSpaceSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
    operationId: 'updateSiteSpaceById',
    summary: 'Update a site space',
  },
});

const siteSpace = {
  noun: 'siteSpaces',
  name: 'SiteSpace',
  path: 'site-spaces/{siteSpaceId}',
  param: { siteSpaceId },
  schema: SiteSpaceSchema,
  position: SiteSpacePositionSchema,
} as const;

export const deleteSiteSpaceById = deleteStructureItem(siteSpace, 'Remove a space from a site');
export const moveSiteSpace = moveStructureItem(
  siteSpace,
  'Move a site space among its siblings (deprecated: use sortSiteStructure)',
);
