import fc from 'fast-check';
import type { JsonSchema, Operation } from './document.ts';
import { hostileText } from './hostile.ts';
import { valueOf } from './schema-arbitrary.ts';

/** A request body as sent: its text and Content-Type (either may be absent), and what was made hostile. */
export interface BodyPart {
  text: string | undefined;
  contentType: string | undefined;
  tags: string[];
}

const JSON_TYPE = 'application/json';
const json = (text: string, tags: string[] = [], contentType = JSON_TYPE): BodyPart => ({ text, contentType, tags });
const NONE: BodyPart = { text: undefined, contentType: undefined, tags: [] };

const NOT_OBJECTS = ['[]', '[{}]', '"title"', '42', 'null', 'true', '-0', `${'['.repeat(3000)}${']'.repeat(3000)}`];
const MALFORMED = [
  '{"title":',
  '{',
  '}',
  "{'a':1}",
  '{"a":1}x',
  '{"a":1,}',
  'NaN',
  '\u0000',
  '\ufeff{}',
  '{"a":"\\u00"}',
  '{"a":1}{"b":2}',
  ' ',
  '{"a":\u0000}',
  '['.repeat(5000),
];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/jsonx',
  '*/*',
  'application/json;;;',
];
const JSON_VARIANTS = [JSON_TYPE, 'application/json; charset=utf-8', 'APPLICATION/JSON'];
const BODY_TEXT_BUDGET = 10_000;

/**
 * The body of a request to `op`. Valid: a value of its JSON body schema (nothing when it has none). Hostile:
 * that value mutated, a JSON value that is no object, malformed JSON, another media type, or no body; for an
 * operation without a body, an unexpected one.
 */
export function bodyArbitrary(op: Operation, ids: readonly string[], isHostile: boolean): fc.Arbitrary<BodyPart> {
  if (!op.body)
    return isHostile
      ? fc.constantFrom(...NOT_OBJECTS, ...MALFORMED, '{"x":1}').map((t) => json(t, ['body:unexpected']))
      : fc.constant(NONE);
  const valid = valueOf(op.body.schema, ids).filter(isObject);
  if (!isHostile)
    return fc.tuple(valid, fc.constantFrom(...JSON_VARIANTS)).map(([v, type]) => json(JSON.stringify(v), [], type));
  return fc.oneof(
    { arbitrary: fc.tuple(valid, mutation(op.body.schema, ids)).map(([v, mutate]) => mutate(v)), weight: 7 },
    { arbitrary: fc.constantFrom(...NOT_OBJECTS).map((t) => json(t, ['body:not-an-object'])), weight: 1 },
    { arbitrary: fc.constantFrom(...MALFORMED).map((t) => json(t, ['body:malformed-json'])), weight: 1 },
    {
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...OTHER_TYPES, undefined))
        .map(([v, type]) => ({ text: JSON.stringify(v), contentType: type, tags: ['content-type'] })),
      weight: 1,
    },
    { arbitrary: fc.constant({ ...NONE, tags: op.body.required ? ['body:absent'] : [] }), weight: 1 },
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Mutate = (valid: Record<string, unknown>) => BodyPart;

/** One change to a valid body object, named in the tags. */
function mutation(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<Mutate> {
  const props = Object.keys(schema.properties ?? {});
  const enumProps = props.filter((p) => enumValues(schema.properties![p]!).length);
  const arrayProps = props.filter((p) => schema.properties![p]!.type === 'array');
  const required = schema.required ?? [];

  const mutations = fieldMutations(fc.constantFrom(...props, 'unknownField'), ids);
  if (required.length) mutations.push(droppedRequired(required));
  if (enumProps.length) mutations.push(badEnum(schema, enumProps));
  if (arrayProps.length) mutations.push(badItems(arrayProps));
  return fc.oneof(...mutations);
}

const anyValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
  fc.string(),
);

/** `key` set to `value`. */
const set =
  (key: string, value: unknown, tag: string): Mutate =>
  (v) =>
    json(JSON.stringify(withOwn(v, key, value)), [`body:${tag}(${key})`]);

/** `key` set to a JSON number literal as written (out of range, negative zero, beyond double precision). */
const raw =
  (key: string, literal: string): Mutate =>
  (v) =>
    json(JSON.stringify(withOwn(v, key, RAW)).replace(`"${RAW}"`, literal), [`body:raw-number(${key})`]);

/** The changes any body takes: a field (`prop`, known or not) of another type, hostile text, a raw number, deep nesting; an extra field. */
function fieldMutations(prop: fc.Arbitrary<string>, ids: readonly string[]): fc.Arbitrary<Mutate>[] {
  return [
    fc.tuple(prop, anyValue).map(([k, x]) => set(k, x, 'any-type')),
    fc.tuple(prop, hostileText(BODY_TEXT_BUDGET)).map(([k, s]) => set(k, s, 'hostile-string')),
    fc.tuple(prop, hostileText(BODY_TEXT_BUDGET)).map(([k, s]) => set(k, s, 'hostile-string')),
    fc
      .tuple(
        prop,
        fc.constantFrom('1e400', '-1e400', '1e-400', '-0', '123456789012345678901234567890', '9007199254740993'),
      )
      .map(([k, n]) => raw(k, n)),
    fc
      .tuple(
        fc.constantFrom('__proto__', 'constructor', 'id', 'organizationId', 'spaceId', 'object', ''),
        fc.oneof(fc.constantFrom(...ids), fc.object({ maxDepth: 1 })),
      )
      .map(([k, x]) => set(k, x, 'extra-field')),
    fc.tuple(prop, fc.integer({ min: 2, max: 2000 })).map(([k, depth]) => set(k, nested(depth), 'deep-nesting')),
  ];
}

/** A required field left out. */
function droppedRequired(required: string[]): fc.Arbitrary<Mutate> {
  return fc.constantFrom(...required).map(
    (k): Mutate =>
      (v) =>
        json(JSON.stringify(without(v, k)), [`body:drop-required(${k})`]),
  );
}

/** An enum field set to a near miss of one of its values (case, padding, NUL), an unknown value or nothing. */
function badEnum(schema: JsonSchema, enumProps: string[]): fc.Arbitrary<Mutate> {
  const bad = fc.tuple(
    fc.constantFrom(...enumProps),
    fc.constantFrom(
      (e: string) => e.toUpperCase(),
      (e: string) => `${e} `,
      (e: string) => `${e}\u0000`,
      () => 'unknown',
      () => '',
    ),
  );
  return bad.map(([k, f]) => set(k, f(String(enumValues(schema.properties![k]!)[0])), 'bad-enum'));
}

/** An array field holding items of any type, too many items, or hostile text. */
function badItems(arrayProps: string[]): fc.Arbitrary<Mutate> {
  const items = fc.oneof(
    fc.array(anyValue, { minLength: 1, maxLength: 5 }),
    fc.constant(Array.from({ length: 1001 }, (_, i) => `item${i}`)),
    fc.array(hostileText(200), { maxLength: 5 }),
  );
  return fc.tuple(fc.constantFrom(...arrayProps), items).map(([k, x]) => set(k, x, 'bad-items'));
}

const RAW = 'RAW-LITERAL-PLACEHOLDER';

/** `v` with an own enumerable `key` (even `__proto__`). */
function withOwn(v: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = { ...v };
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

function without(v: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = v;
  return rest;
}

const nested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

function enumValues(schema: JsonSchema): unknown[] {
  if (schema.enum) return schema.enum;
  if ('const' in schema) return [schema.const];
  return (schema.anyOf ?? schema.oneOf ?? []).flatMap(enumValues);
}
