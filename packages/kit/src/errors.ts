import { TRPCError } from '@trpc/server';
import { ERROR_STATUS, errorCodeForStatus, type ErrorCode } from '@quire/contracts';

type TrpcCode = TRPCError['code'];

/** Each reason of the catalog (contracts' `ERRORS`) as a tRPC code: the one mapping between the two. */
const TRPC_CODE = {
  invalid_input: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'METHOD_NOT_SUPPORTED',
  conflict: 'CONFLICT',
  gone: 'NOT_FOUND',
  precondition_failed: 'PRECONDITION_FAILED',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  uri_too_long: 'BAD_REQUEST',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  rate_limited: 'TOO_MANY_REQUESTS',
  header_too_large: 'BAD_REQUEST',
  internal: 'INTERNAL_SERVER_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<ErrorCode, TrpcCode>;

/** tRPC codes a procedure may fail with outside our catalog (thrown by tRPC itself), as HTTP statuses. */
const TRPC_STATUS: Partial<Record<TrpcCode, number>> = {
  PARSE_ERROR: 400,
  TIMEOUT: 408,
  UNPROCESSABLE_CONTENT: 422,
  CLIENT_CLOSED_REQUEST: 499,
  ...Object.fromEntries(
    (Object.entries(TRPC_CODE) as [ErrorCode, TrpcCode][])
      .filter(([reason]) => reason !== 'gone' && reason !== 'uri_too_long' && reason !== 'header_too_large')
      .map(([reason, code]) => [code, ERROR_STATUS[reason]]),
  ),
};

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

/** A public error from a reason and a sentence. */
export const publicError = (reason: ErrorCode, message: string): PublicError => ({
  status: ERROR_STATUS[reason],
  reason,
  message,
  unexpected: reason === 'internal',
});

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

const INTERNAL = publicError('internal', 'Internal server error');
const DATABASE_UNAVAILABLE = publicError('unavailable', 'The service cannot reach its database; retry shortly');

/** What a 503 tells the caller to wait, in seconds (`Retry-After`): outages are answered, then retried. */
export const RETRY_AFTER_SECONDS = 1;

/** Network failures of a connection to PostgreSQL (the server down, restarting, or unreachable). */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/**
 * SQLSTATEs of a server that is away or cannot serve now: connection exceptions (class 08), shutdown and
 * crash (57P01–57P03), too many connections (53300), a statement or idle transaction timed out (57014, 25P03).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25P03']);
/** node-postgres' own sentences for a connection it lost or could not get in time (they carry no code). */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client (has encountered a connection error|was closed) and is not queryable|Query read timeout)/;

/** Whether `err` (or what caused it) is the database being unreachable rather than a fault of the call or code. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  if (
    typeof e.code === 'string' &&
    (NET_CODES.has(e.code) || UNAVAILABLE_STATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))
  )
    return true;
  if (e.name === 'ConnectionException') return true;
  if (typeof e.message === 'string' && LOST_CONNECTION.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
const CONFLICT = publicError('conflict', 'A resource with the same identity already exists');

/** Turns anything thrown into what the caller may see. Unexpected errors never leak their message. */
export function toPublicError(err: unknown): PublicError {
  if (err instanceof DomainError) return publicError(err.reason, err.message);
  if (err instanceof TRPCError) {
    if (err.cause instanceof DomainError) return toPublicError(err.cause);
    if (err.code === 'BAD_REQUEST' && hasIssues(err.cause))
      return publicError('invalid_input', `Invalid request: ${formatIssues(err.cause.issues)}`);
    if (
      err.code === 'INTERNAL_SERVER_ERROR' ||
      err.code === 'NOT_IMPLEMENTED' ||
      err.code === 'BAD_GATEWAY' ||
      err.code === 'GATEWAY_TIMEOUT'
    ) {
      return findUniqueViolation(err.cause)
        ? CONFLICT
        : isDatabaseUnavailable(err.cause)
          ? DATABASE_UNAVAILABLE
          : INTERNAL;
    }
    const status = TRPC_STATUS[err.code] ?? 500;
    const reason = errorCodeForStatus(status);
    return {
      status,
      reason,
      message: status >= 500 ? 'Service unavailable' : err.message,
      unexpected: status >= 500 && status !== 503,
    };
  }
  if (hasIssues(err)) return publicError('invalid_input', `Invalid request: ${formatIssues(err.issues)}`);
  if (findUniqueViolation(err)) return CONFLICT;
  if (isDatabaseUnavailable(err)) return DATABASE_UNAVAILABLE;
  return INTERNAL;
}

function findUniqueViolation(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && (err as { name?: string }).name === 'UniqueConstraintViolationException'
  );
}
