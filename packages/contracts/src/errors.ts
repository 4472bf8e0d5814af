import { z } from 'zod';

/** The body of every error response. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.number().int().describe('HTTP status code'),
      message: z.string().describe('Human readable explanation'),
    }),
  })
  .describe('Error');
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * The error catalog: stable domain reasons, the HTTP status of each and what it means to a caller.
 * The one table every error mapping derives from (kit's tRPC codes, the gateway's bodies, the OpenAPI
 * document's error responses).
 */
export const ERRORS = {
  invalid_input: { status: 400, description: 'Bad input: the message names the field and the rule' },
  unauthenticated: { status: 401, description: 'Missing, malformed or invalid API token' },
  forbidden: { status: 403, description: 'The token may not do this' },
  not_found: { status: 404, description: 'Not found (or not visible to the caller)' },
  method_not_allowed: { status: 405, description: 'The method is not allowed on this route' },
  conflict: { status: 409, description: 'Conflict with the current state' },
  gone: { status: 410, description: 'The link has expired' },
  precondition_failed: { status: 412, description: 'Precondition failed' },
  payload_too_large: { status: 413, description: 'Request body too large' },
  uri_too_long: { status: 414, description: 'Request URI too long' },
  unsupported_media_type: { status: 415, description: 'Unsupported Content-Type: send application/json' },
  rate_limited: { status: 429, description: 'Rate limited; see Retry-After' },
  header_too_large: { status: 431, description: 'Request headers too large' },
  internal: { status: 500, description: 'Unexpected error (logged with the request id)' },
  unavailable: { status: 503, description: 'The owning service is unavailable' },
} as const satisfies Record<string, { status: number; description: string }>;
export type ErrorCode = keyof typeof ERRORS;

export const ERROR_STATUS = Object.fromEntries(Object.entries(ERRORS).map(([code, e]) => [code, e.status])) as {
  [K in ErrorCode]: (typeof ERRORS)[K]['status'];
};

const BY_STATUS = new Map<number, ErrorCode>(Object.entries(ERRORS).map(([code, e]) => [e.status, code as ErrorCode]));

/** The reason of an HTTP error status (an unknown 4xx is `invalid_input`, an unknown 5xx `internal`). */
export const errorCodeForStatus = (status: number): ErrorCode =>
  BY_STATUS.get(status) ?? (status >= 500 ? 'internal' : 'invalid_input');
