import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { openAPISpecVersionId, organizationId, specSlug } from '../params.ts';
import {
  OpenAPISpecContentSchema,
  OpenAPISpecSchema,
  OpenAPISpecSlugSchema,
  OpenAPISpecSourceSchema,
  OpenAPISpecVersionSchema,
} from '../schemas/openapi.ts';
import { ORGANIZATION, resourceOps } from './resources.ts';

const op = operationsOf('content', { tags: ['openapi'] });

const specs = resourceOps(op, {
  noun: 'openapiSpecs',
  in: ORGANIZATION,
  path: 'openapi',
  param: { specSlug },
  item: OpenAPISpecSchema,
});

export const listOpenAPISpecs = specs.list(
  'listOpenAPISpecs',
  'List the OpenAPI specifications of an organization (oldest first)',
);

export const createOpenAPISpec = specs.create(
  'createOpenAPISpec',
  'Create an OpenAPI specification (`pending`): it is fetched, validated and stored as a version in the background (409 when the slug is taken)',
  { slug: OpenAPISpecSlugSchema, source: OpenAPISpecSourceSchema },
);

export const getOpenAPISpecBySlug = specs.get('getOpenAPISpecBySlug', 'Get an OpenAPI specification by its slug');

export const createOrUpdateOpenAPISpecBySlug = op({
  id: 'openapiSpecs.upsert',
  input: z.object({
    organizationId,
    specSlug: OpenAPISpecSlugSchema.describe('Slug of the specification (created when none has it)'),
    source: OpenAPISpecSourceSchema,
  }),
  output: OpenAPISpecSchema,
  http: {
    route: 'PUT /orgs/{organizationId}/openapi/{specSlug}',
    operationId: 'createOrUpdateOpenAPISpecBySlug',
    summary:
      'Create an OpenAPI specification or give it a new source; it is processed again (a new version when the document changed)',
  },
});

export const deleteOpenAPISpecBySlug = specs.delete(
  'deleteOpenAPISpecBySlug',
  'Delete an OpenAPI specification and its versions',
  205,
);

const versions = resourceOps(op, {
  noun: 'openapiSpecVersions',
  in: { route: '/orgs/{organizationId}/openapi/{specSlug}', params: { organizationId, specSlug } },
  path: 'versions',
  param: { versionId: openAPISpecVersionId },
  item: OpenAPISpecVersionSchema,
});

export const listOpenAPISpecVersions = versions.list(
  'listOpenAPISpecVersions',
  'List the versions of an OpenAPI specification, newest first',
);

export const getLatestOpenAPISpecVersion = op({
  id: 'openapiSpecVersions.getLatest',
  access: 'reader',
  input: z.object({ organizationId, specSlug }),
  output: OpenAPISpecVersionSchema,
  http: {
    route: 'GET /orgs/{organizationId}/openapi/{specSlug}/versions/latest',
    operationId: 'getLatestOpenAPISpecVersion',
    summary: 'Get the latest version of an OpenAPI specification (404 until one was processed)',
  },
});

export const getLatestOpenAPISpecVersionContent = op({
  id: 'openapiSpecVersions.getLatestContent',
  access: 'reader',
  input: z.object({ organizationId, specSlug }),
  output: OpenAPISpecContentSchema,
  http: {
    route: 'GET /orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    operationId: 'getLatestOpenAPISpecVersionContent',
    summary: 'Get the content of the latest version: its parsed documents and a signed download link',
  },
});

export const getOpenAPISpecVersionById = versions.get(
  'getOpenAPISpecVersionById',
  'Get a version of an OpenAPI specification',
);

export const getOpenAPISpecVersionContentById = op({
  id: 'openapiSpecVersions.getContent',
  input: z.object({ organizationId, specSlug, versionId: openAPISpecVersionId }),
  output: OpenAPISpecContentSchema,
  http: {
    route: 'GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
    operationId: 'getOpenAPISpecVersionContentById',
    summary: 'Get the content of a version: its parsed documents and a signed download link',
  },
});
