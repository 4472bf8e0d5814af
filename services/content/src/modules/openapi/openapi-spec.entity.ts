import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { OpenAPISpecProcessingErrorCode, OpenAPISpecProcessingState } from '@quire/contracts';

/** An OpenAPI specification of an organization: its source (a URL or a text) and where its processing stands. */
export const OpenAPISpec = defineEntity({
  name: 'OpenAPISpec',
  tableName: 'openapi_spec',
  properties: {
    ...idColumn(),
    organizationId: p.string(),
    slug: p.string(),
    sourceUrl: p.string().nullable(),
    sourceText: p.text().nullable().lazy(),
    processingState: p.string().$type<OpenAPISpecProcessingState>(),
    /** Bumped at every new source: a processing result of an older generation is discarded. */
    generation: p.integer(),
    /** While `progress`: until when the claiming job owns it (a lapsed lease is claimed again). */
    leaseUntil: p.datetime().nullable(),
    lastVersionId: p.string().nullable(),
    lastProcessedAt: p.datetime().nullable(),
    lastProcessErrorCode: p.string().$type<OpenAPISpecProcessingErrorCode>().nullable(),
    lastProcessErrorMessage: p.text().nullable(),
    ...timestampColumns(),
  },
});
export type IOpenAPISpec = InferEntity<typeof OpenAPISpec>;

/** The documents of a version, parsed: the entry document and every file its relative `$ref`s reach. */
export interface OpenAPIFilesystem {
  entrypoint: string;
  files: Record<string, unknown>;
}

/** One processed document of a specification; the entry document's bytes are in the blob store under `blobKey`. */
export const OpenAPISpecVersion = defineEntity({
  name: 'OpenAPISpecVersion',
  tableName: 'openapi_spec_version',
  properties: {
    ...idColumn(),
    specId: p.string(),
    /** SHA-256 over every file of the specification: an unchanged document stores no new version. */
    hash: p.string(),
    blobKey: p.string(),
    filename: p.string(),
    contentType: p.string(),
    sourceUrl: p.string().nullable(),
    filesystem: p.json<OpenAPIFilesystem>().lazy(),
    createdAt: p.datetime(),
  },
});
export type IOpenAPISpecVersion = InferEntity<typeof OpenAPISpecVersion>;
