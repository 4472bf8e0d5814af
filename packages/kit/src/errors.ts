import { TRPCError } from '@trpc/server';
import { ERROR_STATUS, type ErrorCode } from '@quire/contracts';

const TRPC_CODE = {
  invalid_input: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  precondition_failed: 'PRECONDITION_FAILED',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  rate_limited: 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL_SERVER_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<ErrorCode, TRPCError['code']>;

/**
 * A failure the caller should see: a stable code from the catalog and a human sentence.
 * Services throw these; the transport maps the code to its HTTP status.
 */
export class DomainError extends TRPCError {
  readonly reason: ErrorCode;
  constructor(reason: ErrorCode, message: string, cause?: unknown) {
    super({ code: TRPC_CODE[reason], message, cause });
    this.reason = reason;
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const forbidden = (message = 'You are not allowed to do this') => new DomainError('forbidden', message);
export const invalid = (message: string) => new DomainError('invalid_input', message);
export const conflict = (message: string) => new DomainError('conflict', message);

export interface PublicError {
  status: number;
  reason: ErrorCode;
  message: string;
  /** True when the failure is ours (5xx): log it with the request id. */
  unexpected: boolean;
}

interface IssueLike {
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  message: string;
}

const hasIssues = (e: unknown): e is { issues: IssueLike[] } =>
  typeof e === 'object' && e !== null && Array.isArray((e as { issues?: unknown }).issues);

/** `title: Too big: expected string to have <=50 characters; limit: ...` */
export function formatIssues(issues: IssueLike[], max = 5): string {
  const parts = issues.slice(0, max).map((i) => {
    const path = (i.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.');
    return path ? `${path}: ${i.message}` : i.message;
  });
  if (issues.length > max) parts.push(`and ${issues.length - max} more`);
  return parts.join('; ');
}

const statusReason = (status: number): ErrorCode =>
  (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] as ErrorCode | undefined) ?? (status >= 500 ? 'internal' : 'invalid_input');

/** Turns anything thrown into what the caller may see. Unexpected errors never leak their message. */
export function toPublicError(err: unknown): PublicError {
  if (err instanceof DomainError) {
    return { status: ERROR_STATUS[err.reason], reason: err.reason, message: err.message, unexpected: err.reason === 'internal' };
  }
  if (err instanceof TRPCError) {
    if (err.cause instanceof DomainError) return toPublicError(err.cause);
    if (err.code === 'BAD_REQUEST' && hasIssues(err.cause)) {
      return { status: 400, reason: 'invalid_input', message: `Invalid request: ${formatIssues(err.cause.issues)}`, unexpected: false };
    }
    if (err.code === 'INTERNAL_SERVER_ERROR' || err.code === 'NOT_IMPLEMENTED' || err.code === 'BAD_GATEWAY' || err.code === 'GATEWAY_TIMEOUT') {
      const unique = findUniqueViolation(err.cause);
      if (unique) return { status: 409, reason: 'conflict', message: 'A resource with the same identity already exists', unexpected: false };
      return { status: 500, reason: 'internal', message: 'Internal server error', unexpected: true };
    }
    const status = TRPC_HTTP[err.code] ?? 500;
    return { status, reason: statusReason(status), message: status >= 500 ? 'Service unavailable' : err.message, unexpected: status >= 500 && status !== 503 };
  }
  if (hasIssues(err)) return { status: 400, reason: 'invalid_input', message: `Invalid request: ${formatIssues(err.issues)}`, unexpected: false };
  if (findUniqueViolation(err)) return { status: 409, reason: 'conflict', message: 'A resource with the same identity already exists', unexpected: false };
  return { status: 500, reason: 'internal', message: 'Internal server error', unexpected: true };
}

function findUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: string }).name === 'UniqueConstraintViolationException';
}

const TRPC_HTTP: Partial<Record<TRPCError['code'], number>> = {
  PARSE_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
  SERVICE_UNAVAILABLE: 503,
};
