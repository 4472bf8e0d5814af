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

/** Stable domain error codes and the HTTP status each maps to. One catalog, used everywhere. */
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export const errorCodeForStatus = (status: number): ErrorCode => {
  for (const [code, s] of Object.entries(ERROR_STATUS)) if (s === status) return code as ErrorCode;
  return status >= 500 ? 'internal' : 'invalid_input';
};
