import fc from 'fast-check';
import type { JsonSchema } from './document.ts';

/**
 * Values meant to satisfy a JSON schema (best effort: `format` and `pattern` are honoured, lengths are
 * kept short). Plain strings are sometimes one of `ids`, the real ids the platform was seeded with, so
 * references in bodies (`parent`, `organization`, `members`…) reach the code behind a successful lookup.
 */
export function valueOf(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => valueOf(b, ids)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valueOf({ ...schema, type }, ids)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: clampInt(schema.minimum ?? -1000), max: clampInt(schema.maximum ?? 1000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'string':
      return stringOf(schema, ids);
    case 'array':
      return fc.array(valueOf(schema.items ?? {}, ids), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      });
    case 'object':
      return objectOf(schema, ids);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const INT32 = 2 ** 31 - 1;
const clampInt = (n: number) => Math.max(-INT32, Math.min(INT32, Math.trunc(n)));

/**
 * Arbitraries that are slow to build, built once per run and shared. Building one for a pattern parses the regular
 * expression into a generator (tens of milliseconds; a Unicode property class, more), and a schema such as the
 * site customization holds the same pattern dozens of times, built again for every request shape: seconds of
 * synchronous work in the process that also runs the platform under test. An arbitrary holds no state, so sharing
 * one draws the same values.
 */
const built = new Map<string, fc.Arbitrary<string>>();
function once(key: string, build: () => fc.Arbitrary<string>): fc.Arbitrary<string> {
  let arbitrary = built.get(key);
  if (!arbitrary) built.set(key, (arbitrary = build()));
  return arbitrary;
}

function stringOf(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 40, 40));
  const fits = (s: string) => s.length >= min && s.length <= (schema.maxLength ?? Infinity);
  const { pattern } = schema;
  if (pattern)
    return once(`pattern ${max} ${pattern}`, () =>
      fc.stringMatching(new RegExp(pattern, 'u'), { maxLength: max }),
    ).filter(fits);
  if (schema.format === 'email') return once('email', () => fc.emailAddress()).filter(fits);
  if (schema.format === 'uri') return once('uri', () => fc.webUrl()).filter(fits);
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
  const text = fc.oneof(
    { arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme-ascii' }), weight: 3 },
    { arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }).filter(fits), weight: 1 },
  );
  const real = ids.filter(fits);
  return real.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...real), weight: 1 }, { arbitrary: text, weight: 2 })
    : text;
}

function objectOf(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(schema.properties ?? {});
  const declared = fc.record(Object.fromEntries(props.map(([k, s]) => [k, valueOf(s, ids)])), {
    requiredKeys: schema.required ?? [],
  });
  const extra = schema.additionalProperties;
  if (!extra || typeof extra !== 'object') return declared;
  // `__proto__` (and `constructor`) keys are refused by the gateway's JSON parser before anything else (a hostile
  // body, mutated on purpose elsewhere): a valid body's free keys never are one.
  const keys = (
    schema.propertyNames
      ? stringOf({ ...schema.propertyNames, type: 'string' }, ids)
      : fc.string({ minLength: 1, maxLength: 20 })
  ).filter((k) => k !== '__proto__' && k !== 'constructor');
  return fc.tuple(declared, fc.dictionary(keys, valueOf(extra, ids), { maxKeys: 3 })).map(([d, x]) => ({ ...x, ...d }));
}
