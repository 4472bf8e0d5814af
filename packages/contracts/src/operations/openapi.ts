import { z } from 'zod';
import { listOf, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { openAPISpecVersionId, organizationId, specSlug } from '../params.ts';
import {
  OpenAPISpecContentSchema,
  OpenAPISpecSchema,
  OpenAPISpecSlugSchema,
  OpenAPISpecSourceSchema,
  OpenAPISpecVersionSchema,
} from '../schemas/openapi.ts';

const op = operationsOf('content', { tags: ['openapi'] });

export const listOpenAPISpecs = op({
  id: 'openapiSpecs.list',
  input: z.object({ organizationId, ...PageQueryShape }),
  output: listOf(OpenAPISpecSchema),
  http: {
    route: 'GET /orgs/{organizationId}/openapi',
    operationId: 'listOpenAPISpecs',
    summary: 'List the OpenAPI specifications of an organization (oldest first)',
  },
});

export const createOpenAPISpec = op({
  id: 'openapiSpecs.create',
  input: z.object({ organizationId, slug: OpenAPISpecSlugSchema, source: OpenAPISpecSourceSchema }),
  output: OpenAPISpecSchema,
  http: {
    route: 'POST /orgs/{organizationId}/openapi',
    status: 201,
    operationId: 'createOpenAPISpec',
    summary:
      'Create an OpenAPI specification (`pending`): it is fetched, validated and stored as a version in the background (409 when the slug is taken)',
  },
});

export const getOpenAPISpecBySlug = op({
  id: 'openapiSpecs.get',
  input: z.object({ organizationId, specSlug }),
  output: OpenAPISpecSchema,
  http: {
    route: 'GET /orgs/{organizationId}/openapi/{specSlug}',
    operationId: 'getOpenAPISpecBySlug',
    summary: 'Get an OpenAPI specification by its slug',
  },
});

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

export const deleteOpenAPISpecBySlug = op({
  id: 'openapiSpecs.delete',
  input: z.object({ organizationId, specSlug }),
  output: z.void(),
  http: {
    route: 'DELETE /orgs/{organizationId}/openapi/{specSlug}',
    status: 205,
    operationId: 'deleteOpenAPISpecBySlug',
    summary: 'Delete an OpenAPI specification and its versions',
  },
});

export const listOpenAPISpecVersions = op({
  id: 'openapiSpecVersions.list',
  input: z.object({ organizationId, specSlug, ...PageQueryShape }),
  output: listOf(OpenAPISpecVersionSchema),
  http: {
    route: 'GET /orgs/{organizationId}/openapi/{specSlug}/versions',
    operationId: 'listOpenAPISpecVersions',
    summary: 'List the versions of an OpenAPI specification, newest first',
  },
});

export const getLatestOpenAPISpecVersion = op({
  id: 'openapiSpecVersions.getLatest',
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
  input: z.object({ organizationId, specSlug }),
  output: OpenAPISpecContentSchema,
  http: {
    route: 'GET /orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    operationId: 'getLatestOpenAPISpecVersionContent',
    summary: 'Get the content of the latest version: its parsed documents and a signed download link',
  },
});

export const getOpenAPISpecVersionById = op({
  id: 'openapiSpecVersions.get',
  input: z.object({ organizationId, specSlug, versionId: openAPISpecVersionId }),
  output: OpenAPISpecVersionSchema,
  http: {
    route: 'GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
    operationId: 'getOpenAPISpecVersionById',
    summary: 'Get a version of an OpenAPI specification',
  },
});

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
