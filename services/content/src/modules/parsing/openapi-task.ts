import type { OpenAPISpecProcessingErrorCode } from '@quire/contracts';
import type { OpenAPIFetchLimits, OpenAPISourceInput, ProcessedOpenAPI } from '../openapi/openapi-document.ts';

export type OpenAPIResult =
  | { ok: true; processed: ProcessedOpenAPI }
  | { ok: false; code: OpenAPISpecProcessingErrorCode; message: string };

/**
 * An OpenAPI specification fetched, parsed and validated (see `processOpenAPISource`), on the OpenAPI thread
 * (text-parser.ts): the validator and the kit it fetches with load there once, apart from the markdown threads.
 */
export async function readOpenAPI(source: OpenAPISourceInput, limits: OpenAPIFetchLimits): Promise<OpenAPIResult> {
  const { processOpenAPISource, OpenAPIProcessingError } = await import('../openapi/openapi-document.ts');
  try {
    return { ok: true, processed: await processOpenAPISource(source, limits) };
  } catch (err) {
    if (err instanceof OpenAPIProcessingError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}
