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
export type Access = 'public' | 'user' | 'instance-admin' | 'internal';

export interface HttpBinding {
  method: HttpMethod;
  /** Path below `/v1`, with `{param}` placeholders named after input fields. */
  path: string;
  status: SuccessStatus;
  /** The GitBook operationId where GitBook has the operation. */
  operationId: string;
  summary: string;
  tags: string[];
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

/** Declares an operation once: the service implements it, the gateway routes it, the OpenAPI document shows it. */
export function defineOperation<
  const Id extends string,
  const S extends ServiceName,
  I extends z.ZodObject,
  O extends z.ZodType,
  const A extends Access,
>(def: {
  id: Id;
  service: S;
  access: A;
  input: I;
  output: O;
  http?: HttpBinding;
  /** Defaults from the HTTP method (GET → query); internal operations say it. */
  type?: 'query' | 'mutation';
}): Operation<Id, S, I, O, A> {
  const type = def.type ?? (def.http ? (def.http.method === 'GET' ? 'query' : 'mutation') : 'query');
  if (def.http) {
    for (const [, name] of def.http.path.matchAll(/\{(\w+)\}/g)) {
      if (!(name! in def.input.shape)) throw new Error(`${def.id}: path parameter {${name}} is not an input field`);
    }
  }
  return { ...def, type };
}
