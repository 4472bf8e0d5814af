import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Operation } from './document.ts';
import type { Outcome, RawResponse } from './http.ts';
import type { FuzzRequest } from './requests.ts';

/**
 * The contract every answer keeps, whatever the input:
 * 1. no 5xx (every service runs, so a 503 is a failure too);
 * 2. every error body is exactly `{"error":{"code":<HTTP status>,"message":<string>}}`, with a JSON content type;
 * 3. every error status is one the operation documents (414/431 also allowed for deliberately oversized requests);
 * 4. every 2xx is the operation's documented success, its body valid against the documented schema (204/205: empty);
 * 5. no socket error instead of an answer;
 * and a valid request without a token gets 401, except on the public operations.
 */
export type Rule =
  | 'server-error'
  | 'error-shape'
  | 'undocumented-status'
  | 'success-body'
  | 'socket-error'
  | 'authentication';

export interface Violation {
  rule: Rule;
  /** What is wrong, for this request. */
  message: string;
  /** What identifies the kind of failure across requests (reports group by rule and signature). */
  signature: string;
}

/**
 * No token needed: the document itself, and the published-content lookup (public like the sites it resolves).
 * Every other operation requires one (`GET /v1/` included).
 */
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /v1/openapi.json',
  'GET /v1/urls/published',
  'POST /v1/urls/published',
]);

const SIZE_STATUSES = [414, 431];

export class Contract {
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  /**
   * Each success schema is compiled when an answer first needs it, not all at once: compiling the whole document
   * takes seconds of synchronous work, and the fuzz shares its process with the platform it checks (under load, a
   * stalled event loop fails the requests waiting on it).
   */
  constructor() {
    addFormats(this.ajv);
  }

  private validator(op: Operation, status: number): ValidateFunction | undefined {
    const schema = op.success.get(status);
    if (!schema) return undefined;
    const key = `${op.key} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) this.validators.set(key, (validate = this.ajv.compile(schema)));
    return validate;
  }

  check(op: Operation, req: FuzzRequest, outcome: Outcome): Violation[] {
    if ('failure' in outcome) {
      const { code, message } = outcome.failure;
      return [{ rule: 'socket-error', message: `no answer: ${code} ${message}`, signature: code }];
    }
    const res = outcome.response;
    const { status } = res;
    const found: Violation[] = [];
    const add = (rule: Rule, message: string, signature = String(status)) => found.push({ rule, message, signature });
    if (outcome.reuse) {
      const { code, message } = outcome.reuse;
      add(
        'socket-error',
        `answered ${status} without \`Connection: close\`, then dropped the connection: the next request on it failed (${code} ${message})`,
        `connection dropped after ${status}`,
      );
    }

    if (status >= 500) add('server-error', `answered ${status}`, `${status} ${errorMessage(res.text)}`);
    if (status >= 400) {
      const shape = errorShapeProblem(res);
      if (shape) add('error-shape', shape, `${status} ${foreignCode(res.text)}`);
      if (!op.errors.has(status) && !(req.oversized && SIZE_STATUSES.includes(status)))
        add('undocumented-status', `${status} is not documented (documented: ${[...op.errors].join(', ')})`);
    } else if (op.success.has(status)) {
      const problem = this.successProblem(op, res);
      if (problem) add('success-body', problem.message, `${op.key} ${status} ${problem.signature}`);
    } else {
      add('undocumented-status', `${status} is not the documented success (${[...op.success.keys()].join(', ')})`);
    }
    if (req.auth === 'none' && req.tags.length === 0 && !PUBLIC_OPERATIONS.has(op.key) && status !== 401) {
      add('authentication', `answered ${status} to a request without a token (expected 401)`, op.key);
    }
    return found;
  }

  private successProblem(op: Operation, res: RawResponse): { message: string; signature: string } | undefined {
    if (res.status === 204 || res.status === 205)
      return res.text === '' ? undefined : { message: `${res.status} with a body`, signature: 'non-empty' };
    const validate = this.validator(op, res.status);
    if (!validate) return undefined;
    if (!isJson(res.contentType))
      return { message: `content type ${res.contentType ?? '(none)'}, not JSON`, signature: 'content-type' };
    const body = parse(res.text);
    if (body === NOT_JSON) return { message: 'body is not JSON', signature: 'not-json' };
    if (validate(body)) return undefined;
    const first = validate.errors![0]!;
    return {
      message: `body breaks the documented schema: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`,
      signature: `${first.instancePath} ${first.keyword}`,
    };
  }
}

const NOT_JSON = Symbol('not JSON');
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
};
const isJson = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const sameKeys = (v: Record<string, unknown>, keys: string[]) => Object.keys(v).sort().join() === keys.join();

function errorShapeProblem(res: RawResponse): string | undefined {
  if (!isJson(res.contentType)) return `content type ${res.contentType ?? '(none)'}, not JSON`;
  const body = parse(res.text);
  const error = isRecord(body) ? body.error : undefined;
  const exact =
    isRecord(body) &&
    sameKeys(body, ['error']) &&
    isRecord(error) &&
    sameKeys(error, ['code', 'message']) &&
    error.code === res.status &&
    typeof error.message === 'string';
  return exact ? undefined : `body is not exactly {"error":{"code":${res.status},"message":<string>}}`;
}

/** The code of a body in another error shape (fastify's `FST_ERR_…`), or its keys, or how it is not JSON. */
function foreignCode(text: string): string {
  const body = parse(text);
  if (body === NOT_JSON) return text === '' ? 'empty body' : 'non-JSON body';
  if (isRecord(body) && typeof body.code === 'string') return body.code;
  return isRecord(body) ? `keys ${Object.keys(body).join(',')}` : typeof body;
}

/** The error message with ids and numbers blanked, so one failure on many resources reads as one. */
function errorMessage(text: string): string {
  const body = parse(text);
  const message = isRecord(body) && isRecord(body.error) ? String(body.error.message) : text;
  return message
    .replace(/[A-Za-z0-9]{20}/g, '<id>')
    .replace(/\d+/g, 'N')
    .slice(0, 100);
}
