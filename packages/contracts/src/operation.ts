import type { z } from 'zod';

export const SERVICES = ['content', 'sites', 'org-admin', 'integrations'] as const;
export type ServiceName = (typeof SERVICES)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type SuccessStatus = 200 | 201 | 204 | 205;

/**
 * Who may call an operation at all (finer checks live in the owning service's policy modules):
 * - `public`: anyone, even without a token;
 * - `user`: a user's API token;
 * - `instance-admin`: the instance admin token (CLI administration);
 * - `internal`: other services only (never routed by the gateway).
 */
/**
 * Who may call an operation: anyone (`public`), a user's API token (`user`), a user's API token or a reader's
 * published-content token (`reader`: the reads a published site's renderer makes; the owning service's policy
 * decides what a reader sees), the instance admin, or other services only (`internal`).
 */
export type Access = 'public' | 'user' | 'reader' | 'instance-admin' | 'internal';

/**
 * The verbs an operation id may use, after the noun: `spaces.get`, `spaces.listInOrg`, `members.updateSso`.
 * One word per kind of change (`delete`, never `remove`), so ids read alike across services.
 */
export const VERBS = [
  'list',
  'get',
  'count',
  'search',
  'create',
  'update',
  'upsert',
  'delete',
  'restore',
  'duplicate',
  'move',
  'transfer',
  'sort',
  'add',
  'invite',
  'ping',
  'resolve',
  'revoke',
  'bootstrap',
  'merge',
  'publish',
  'unpublish',
  'install',
  'import',
  'export',
] as const;
export type Verb = (typeof VERBS)[number];
/** `<noun>.<verb>` or `<noun>.<verb><Qualifier>`: `spaces.get`, `spaces.countForMembers`. */
export type OperationId = `${string}.${Verb}` | `${string}.${Verb}${Capitalize<string>}`;
const OPERATION_ID = new RegExp(`^[a-z][a-zA-Z]*\\.(?:${VERBS.join('|')})(?:[A-Z][A-Za-z]*)?$`);

export interface HttpBinding {
  method: HttpMethod;
  /** Path below `/v1`, with `{param}` placeholders named after input fields. */
  path: string;
  status: SuccessStatus;
  /** The GitBook operationId where GitBook has the operation. */
  operationId: string;
  summary: string;
  tags: string[];
  /** The last path parameter when it may span segments (`guides/setup`): routed as a wildcard. */
  greedy?: string;
  /** Answered as server-sent events (`text/event-stream`): the output's `events`, one `data:` line each. */
  events?: true;
}

export interface Operation<
  Id extends string = string,
  S extends ServiceName = ServiceName,
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  A extends Access = Access,
> {
  /** tRPC procedure path on the owning service (`spaces.get`). */
  id: Id;
  service: S;
  type: 'query' | 'mutation';
  access: A;
  input: I;
  output: O;
  http?: HttpBinding;
}

export type AnyOperation = Operation<string, ServiceName, z.ZodObject, z.ZodType, Access>;
export type OperationInput<Op extends AnyOperation> = z.input<Op['input']>;
export type OperationOutput<Op extends AnyOperation> = z.output<Op['output']>;

/** How an operation is served over HTTP: `'GET /spaces/{spaceId}'`, its success status (200 unless said), GitBook's operationId. */
export interface HttpRoute {
  route: `${HttpMethod} /${string}`;
  status?: SuccessStatus;
  operationId: string;
  summary: string;
  /** The builder's tags unless given. */
  tags?: string[];
  /** The last path parameter, when it may span segments (a page path). */
  greedy?: string;
  /** Answered as server-sent events (`text/event-stream`): the output (`{events: [...]}`) one `data:` line per event. */
  events?: true;
}

export interface OperationDef<Id extends OperationId, I extends z.ZodObject, O extends z.ZodType, A extends Access> {
  id: Id;
  /** `user` unless said. */
  access?: A;
  input: I;
  output: O;
  http?: HttpRoute;
  /** Defaults from the HTTP method (GET → query, others → mutation); an internal operation says it when it writes. */
  type?: 'query' | 'mutation';
}

/**
 * The builder of a service's operations (one per contract file): it carries the owning service and the
 * tags, so each operation states only what is its own. The service implements the operation, the gateway
 * routes it, the OpenAPI document shows it.
 */
export function operationsOf<const S extends ServiceName>(service: S, defaults: { tags: string[] }) {
  return function defineOperation<
    const Id extends OperationId,
    I extends z.ZodObject,
    O extends z.ZodType,
    const A extends Access = 'user',
  >(def: OperationDef<Id, I, O, A>): Operation<Id, S, I, O, A> {
    if (!OPERATION_ID.test(def.id))
      throw new Error(`${def.id}: an operation id is <noun>.<verb>[Qualifier] with a verb of ${VERBS.join(', ')}`);
    let http: HttpBinding | undefined;
    if (def.http) {
      const space = def.http.route.indexOf(' ');
      const method = def.http.route.slice(0, space) as HttpMethod;
      const path = def.http.route.slice(space + 1);
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        if (!(name! in def.input.shape)) throw new Error(`${def.id}: path parameter {${name}} is not an input field`);
      }
      if (def.http.greedy !== undefined && !path.endsWith(`{${def.http.greedy}}`))
        throw new Error(`${def.id}: the greedy parameter must end the path`);
      http = {
        method,
        path,
        status: def.http.status ?? 200,
        operationId: def.http.operationId,
        summary: def.http.summary,
        tags: def.http.tags ?? defaults.tags,
        ...(def.http.greedy ? { greedy: def.http.greedy } : {}),
        ...(def.http.events ? { events: true as const } : {}),
      };
    }
    const type = def.type ?? (http && http.method !== 'GET' ? 'mutation' : 'query');
    return {
      id: def.id,
      service,
      type,
      access: (def.access ?? 'user') as A,
      input: def.input,
      output: def.output,
      ...(http ? { http } : {}),
    };
  };
}

/** The operation, open to readers too (`access: reader`): for one a family builder made (`getSpaceById`). */
export function openToReaders<Id extends string, S extends ServiceName, I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<Id, S, I, O, 'user'>,
): Operation<Id, S, I, O, 'reader'> {
  return { ...op, access: 'reader' };
}
