import fc from 'fast-check';
import { bodyArbitrary, type BodyPart } from './body.ts';
import type { Operation, Parameter } from './document.ts';
import { encode, hostileQueryPair, hostileQueryValue, hostileSegment, queryKeyForm } from './hostile.ts';
import { valueOf } from './schema-arbitrary.ts';

export type AuthKind = 'owner' | 'none' | 'other-org' | 'admin' | 'bad-token';

/** One request exactly as sent. */
export interface FuzzRequest {
  /** The operation's key (`METHOD /template`). */
  operation: string;
  method: string;
  /** Raw path and query, byte for byte. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  auth: AuthKind;
  /** What was made hostile; empty for a request valid by the document's schemas. */
  tags: string[];
  /** Deliberately over the server's URL/header or body size limits. */
  oversized: boolean;
}

/** What the generators draw from: the seeded platform's real ids and tokens. */
export interface FuzzTargets {
  /** Real ids by path parameter name (`organizationId`, `spaceId`…). */
  ids: Record<string, string[]>;
  /** Every real id, of any kind. */
  allIds: string[];
  tokens: Record<Exclude<AuthKind, 'none' | 'bad-token'>, string>;
  bodyLimit: number;
}

interface Part {
  raw: string;
  tags: string[];
}
const clean = (raw: string): Part => ({ raw, tags: [] });
const hostile = (raw: string, tag: string): Part => ({ raw, tags: [tag] });

/** Requests to every operation of the document, equally often. */
export function requestArbitrary(operations: Operation[], targets: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...operations.map((op) => operationRequest(op, targets)));
}

/** A valid request (real ids of each parameter's kind) to every operation with the owner's token, then one without a token. */
export function baselineArbitrary(operations: Operation[], targets: FuzzTargets): fc.Arbitrary<FuzzRequest[]> {
  const valid = (auth: AuthKind) =>
    operations.map((op) => requestParts(op, targets, 'baseline', fc.constant(auth)).map((p) => build(op, targets, p)));
  return fc.tuple(...valid('owner'), ...valid('none'));
}

type Oversize = 'url' | 'header' | 'body' | undefined;
const SIZE_LIMIT_PADDING = 17_000;
/** URL + headers below this are under node's 16 KB header limit with room to spare. */
const HEADER_BUDGET = 15_000;

/**
 * Which part of a request is hostile: none (`valid`: mostly real ids, valid query and body; `baseline`: only
 * real ids of each parameter's kind), exactly one slot (a path parameter, a query parameter, an extra query
 * pair, the body) so that no earlier check masks it, every slot at once (`chaos`), or the size (`oversized`).
 */
type Focus = 'valid' | 'baseline' | 'chaos' | 'oversized' | `path:${string}` | `query:${string}` | 'body';

function operationRequest(op: Operation, t: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const slots: Focus[] = [
    ...op.pathParams.map((p) => `path:${p.name}` as const),
    ...op.queryParams.map((p) => `query:${p.name}` as const),
    'query:extra',
    'body',
  ];
  const parts = (focus: Focus) => requestParts(op, t, focus);
  return fc
    .oneof(
      { arbitrary: parts('valid'), weight: 30 },
      { arbitrary: fc.oneof(...slots.map(parts)), weight: 60 },
      { arbitrary: parts('chaos'), weight: 9 },
      { arbitrary: parts('oversized'), weight: 1 },
    )
    .map((p) => build(op, t, p));
}

const AUTH = fc.oneof(
  { arbitrary: fc.constant<AuthKind>('owner'), weight: 14 },
  { arbitrary: fc.constantFrom<AuthKind>('none', 'other-org'), weight: 4 },
  { arbitrary: fc.constantFrom<AuthKind>('admin', 'bad-token'), weight: 2 },
);
const BAD_TOKEN = fc.constantFrom(
  'Bearer quire_not-a-real-token',
  'Bearer ',
  'Basic Zm9vOmJhcg==',
  `Bearer ${'x'.repeat(4000)}`,
  'Token abc',
  'Bearer a b c',
  'bearer',
);

interface Parts {
  auth: AuthKind;
  badToken: string;
  segments: Part[];
  query: Part;
  body: BodyPart;
  oversize: Oversize;
}

function requestParts(op: Operation, t: FuzzTargets, focus: Focus, auth = AUTH): fc.Arbitrary<Parts> {
  const hostileIn = (slot: Focus) => focus === slot || focus === 'chaos';
  return fc.record({
    auth,
    badToken: BAD_TOKEN,
    segments: fc.tuple(...op.pathParams.map((p) => segment(p, t, hostileIn(`path:${p.name}`), focus === 'baseline'))),
    query: query(op, t, hostileIn),
    body: bodyArbitrary(op, t.allIds, hostileIn('body')),
    oversize:
      focus === 'oversized' ? fc.constantFrom<Oversize>('url', 'header', 'body') : fc.constant<Oversize>(undefined),
  });
}

function build(op: Operation, t: FuzzTargets, parts: Parts): FuzzRequest {
  const segments = new Map(op.pathParams.map((p, i) => [p.name, parts.segments[i]!]));
  let path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => segments.get(name)!.raw);
  if (parts.query.raw) path += `?${parts.query.raw}`;
  if (parts.oversize === 'url') path = padUrl(path, op);
  const headers: Record<string, string> = {};
  if (parts.auth === 'bad-token') headers.authorization = parts.badToken;
  else if (parts.auth !== 'none') headers.authorization = `Bearer ${t.tokens[parts.auth]}`;
  const body = padBody(parts.oversize, parts.body, op, t);
  if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  if (parts.oversize === 'header' || (parts.oversize === 'body' && !op.body))
    headers['x-fuzz-padding'] = 'p'.repeat(SIZE_LIMIT_PADDING);
  const tags = [
    ...[...segments.values()].flatMap((s) => s.tags),
    ...parts.query.tags,
    ...body.tags,
    ...(parts.oversize ? [`oversized:${parts.oversize}`] : []),
  ];
  const headerBytes = path.length + Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return {
    operation: op.key,
    method: op.method,
    path,
    headers,
    body: body.text,
    auth: parts.auth,
    tags,
    oversized: !!parts.oversize || headerBytes > HEADER_BUDGET,
  };
}

/** The body over the body limit, when that is the oversized part. */
function padBody(kind: Oversize, body: BodyPart, op: Operation, t: FuzzTargets): BodyPart {
  if (kind !== 'body' || !op.body) return body;
  return {
    text: JSON.stringify({ padding: 'x'.repeat(t.bodyLimit + 1) }),
    contentType: 'application/json',
    tags: body.tags,
  };
}

/** The URL with its first path parameter (or else a query value) longer than the header limit. */
function padUrl(path: string, op: Operation): string {
  const first = op.pathParams[0];
  if (!first) return `${path}${path.includes('?') ? '&' : '?'}padding=${'p'.repeat(SIZE_LIMIT_PADDING)}`;
  const at = op.template.indexOf(`{${first.name}}`);
  return `${path.slice(0, at)}${'p'.repeat(SIZE_LIMIT_PADDING)}${path.slice(at).replace(/^[^/?]*/, '')}`;
}

/** A path parameter: a real id of its kind (mostly, or only) or of another kind, a value of its schema; or a hostile segment. */
function segment(p: Parameter, t: FuzzTargets, isHostile: boolean, ownOnly: boolean): fc.Arbitrary<Part> {
  if (isHostile) return hostileSegment(t.allIds).map((raw) => hostile(raw, `path:${p.name}`));
  const own = t.ids[p.name] ?? [];
  if (ownOnly && own.length) return fc.constantFrom(...own).map(clean);
  return fc.oneof(
    ...(own.length ? [{ arbitrary: fc.constantFrom(...own).map(clean), weight: 6 }] : []),
    { arbitrary: fc.constantFrom(...t.allIds).map(clean), weight: 1 },
    { arbitrary: valueOf(p.schema, []).map((v) => clean(encode(String(v)))), weight: 1 },
  );
}

/** The query string: each declared parameter absent or valid, or hostile (value or how it is written); and an extra hostile pair. */
function query(op: Operation, t: FuzzTargets, hostileIn: (slot: Focus) => boolean): fc.Arbitrary<Part> {
  const declared = op.queryParams.map((p) => {
    const valid = valueOf(p.schema, t.allIds);
    if (hostileIn(`query:${p.name}`)) {
      return fc.oneof(
        { arbitrary: hostileQueryValue.map((v) => hostile(`${p.name}=${v}`, `query:${p.name}`)), weight: 2 },
        {
          arbitrary: fc
            .tuple(queryKeyForm, valid)
            .map(([form, v]) => hostile(form(p.name, encode(String(v))), `query:${p.name}`)),
          weight: 1,
        },
      );
    }
    return fc.option(
      valid.map((v) => clean(`${p.name}=${encode(String(v))}`)),
      { nil: undefined, freq: 2 },
    );
  });
  const names = [...op.queryParams, ...op.pathParams]
    .map((p) => p.name)
    .concat(Object.keys(op.body?.schema.properties ?? {}));
  const extra = hostileIn('query:extra')
    ? hostileQueryPair(names, t.allIds).map((raw) => hostile(raw, 'query:extra'))
    : fc.constant(undefined);
  return fc.tuple(fc.tuple(...declared), extra).map(([parts, more]) => {
    const present = [...parts, more].filter((x): x is Part => x !== undefined);
    return { raw: present.map((x) => x.raw).join('&'), tags: present.flatMap((x) => x.tags) };
  });
}
