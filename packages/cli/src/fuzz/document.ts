/**
 * The operations of the platform's OpenAPI document, as the fuzzer needs them: path and query parameters,
 * the JSON request body, the documented success status and schema, and the documented error statuses.
 * Every `$ref` is resolved (the document has no recursive schemas; a cycle is reported, not followed).
 */

/** The JSON Schema keywords the fuzzer reads (draft 2020-12, as the document writes them). */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `METHOD /template`, e.g. `GET /v1/spaces/{spaceId}`: how reports name the operation. */
  key: string;
  operationId: string;
  method: string;
  template: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body: { schema: JsonSchema; required: boolean } | undefined;
  /** Documented 2xx statuses and their JSON schema (undefined: no content). */
  success: Map<number, JsonSchema | undefined>;
  /** Documented 4xx/5xx statuses. */
  errors: Set<number>;
}

type Doc = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function readOperations(doc: Doc): Operation[] {
  const resolved = deref(doc, doc) as { paths: Record<string, Record<string, RawOperation>> };
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(resolved.paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (raw) operations.push(toOperation(method.toUpperCase(), template, raw));
    }
  }
  return operations;
}

interface RawOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

function toOperation(method: string, template: string, raw: RawOperation): Operation {
  const params = (raw.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
  const param = (p: (typeof params)[number]): Parameter => ({
    name: p.name,
    in: p.in as Parameter['in'],
    required: p.in === 'path' || !!p.required,
    schema: p.schema ?? {},
  });
  const bodySchema = raw.requestBody?.content?.['application/json']?.schema;
  const success = new Map<number, JsonSchema | undefined>();
  const errors = new Set<number>();
  for (const [code, response] of Object.entries(raw.responses)) {
    const status = Number(code);
    if (status >= 200 && status < 300) success.set(status, response.content?.['application/json']?.schema);
    else if (status >= 400) errors.add(status);
  }
  return {
    key: `${method} ${template}`,
    operationId: raw.operationId ?? `${method} ${template}`,
    method,
    template,
    pathParams: params.filter((p) => p.in === 'path').map(param),
    queryParams: params.filter((p) => p.in === 'query').map(param),
    body: bodySchema ? { schema: bodySchema, required: !!raw.requestBody?.required } : undefined,
    success,
    errors,
  };
}

/**
 * A copy of `node` with every local `$ref` (`#/...`) replaced by what it points to in `doc`. A recursive schema (a
 * section group's `children` holds section groups) is unfolded once: where it would recur, any value is accepted.
 */
export function deref(node: unknown, doc: Doc, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(n, doc, seen));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (seen.includes(ref)) return {};
    return deref(pointer(doc, ref), doc, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v, doc, seen)]));
}

function pointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, not ${ref}`);
  let at: unknown = doc;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
    if (at === undefined) throw new Error(`dangling $ref ${ref}`);
  }
  return at;
}
