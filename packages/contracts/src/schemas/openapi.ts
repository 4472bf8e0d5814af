import { z } from 'zod';
import { TimestampSchema, UrlSchema } from '../common.ts';
import { apiAndAppUrls, objectAndId } from './shapes.ts';

/** api.md: 1..100, lowercase words joined by dashes. */
export const OpenAPISpecSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters and digits, words joined by single dashes')
  .describe('Slug of the specification, unique in the organization (1..100, `^[a-z0-9]+(?:-[a-z0-9]+)*$`)');

/** The longest document accepted as text (the gateway's body limit is lower still). */
export const OPENAPI_TEXT_MAX_CHARS = 5 * 1024 * 1024;

export const OpenAPISpecSourceSchema = z
  .union([
    z
      .object({
        url: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .describe('http(s) URL of the document (max 2048), fetched in the background'),
      })
      .strict()
      .describe('Create a specification from an URL'),
    z
      .object({ text: z.string().min(1).max(OPENAPI_TEXT_MAX_CHARS).describe('The document itself, as YAML or JSON') })
      .strict()
      .describe('Create a specification from a text string'),
  ])
  .describe('Where the document comes from: `{ url }` or `{ text }`');
export type OpenAPISpecSource = z.infer<typeof OpenAPISpecSourceSchema>;

export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export const OpenAPISpecProcessingStateSchema = z
  .enum(OPENAPI_PROCESSING_STATES)
  .describe(
    '`pending`: waiting to be processed; `progress`: being processed; `complete`: the last processing ended (see `lastProcessErrorCode`)',
  );
export type OpenAPISpecProcessingState = z.infer<typeof OpenAPISpecProcessingStateSchema>;

export const OPENAPI_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export const OpenAPISpecProcessingErrorCodeSchema = z
  .enum(OPENAPI_ERROR_CODES)
  .describe(
    'Why the last processing failed: `FETCH_TIMEOUT`, `FETCH_ERROR` (HTTP or network error), `PARSE_ERROR` (not a valid OpenAPI 3.x or Swagger 2.0 document)',
  );
export type OpenAPISpecProcessingErrorCode = z.infer<typeof OpenAPISpecProcessingErrorCodeSchema>;

export const OpenAPISpecSchema = z
  .object({
    ...objectAndId('openapi-spec', 'specification'),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    slug: z.string().describe('Slug of the specification, unique in the organization'),
    sourceURL: UrlSchema.optional().describe(
      'URL the document is fetched from; absent for a specification given as text',
    ),
    processingState: OpenAPISpecProcessingStateSchema,
    lastVersion: z.string().optional().describe('ID of the latest version; absent until a processing succeeded'),
    lastProcessedAt: TimestampSchema.optional().describe('When the last processing ended (successful or not)'),
    lastProcessErrorCode: OpenAPISpecProcessingErrorCodeSchema.optional().describe(
      'Present when the last processing failed (the last good version is kept)',
    ),
    lastProcessedErrors: z
      .array(
        z.object({
          message: z.string().describe('What went wrong, as the fetcher or the parser said it'),
          code: z.string().optional().describe('The error code'),
        }),
      )
      .optional()
      .describe('The errors of the last processing, when it failed'),
    lastProcessedErrorCount: z
      .number()
      .int()
      .min(0)
      .describe('Number of errors of the last processing (0 when it succeeded)'),
    permissions: z
      .object({
        view: z.boolean().describe('Can the caller view the specification'),
        edit: z.boolean().describe('Can the caller edit the specification'),
      })
      .describe('What the caller may do with the specification'),
    urls: apiAndAppUrls('specification'),
  })
  .describe('OpenAPISpec');
export type OpenAPISpec = z.infer<typeof OpenAPISpecSchema>;

export const OpenAPISpecVersionSchema = z
  .object({
    ...objectAndId('openapi-spec-version', 'version'),
    createdAt: TimestampSchema.describe('When the version was stored'),
    url: UrlSchema.describe(
      'URL the document of this version was fetched from (its content in the API for a specification given as text)',
    ),
    urls: z.object({ location: UrlSchema.describe('URL of the version in the API') }),
  })
  .describe('OpenAPISpecVersion');
export type OpenAPISpecVersion = z.infer<typeof OpenAPISpecVersionSchema>;

export const OpenAPISpecContentSchema = z
  .object({
    filesystem: z
      .object({
        entrypoint: z.string().describe('Name of the entry document in `files`'),
        files: z
          .record(z.string(), z.unknown())
          .describe(
            'Every document of the specification, parsed: the entry document and each file its relative `$ref`s reach, by path relative to the entry',
          ),
      })
      .describe('Filesystem containing all the documents of the specification'),
    url: UrlSchema.describe(
      'Signed link downloading the stored entry document without the API token (expires after 1 hour)',
    ),
    urls: z
      .object({
        source: UrlSchema.describe(
          'Where the document came from (the signed download link for a specification given as text)',
        ),
        public: UrlSchema.nullable().describe(
          'Publicly accessible URL of the specification: null (specifications are private)',
        ),
      })
      .describe('URLs of the specification content'),
  })
  .describe('OpenAPISpecContent');
export type OpenAPISpecContent = z.infer<typeof OpenAPISpecContentSchema>;
