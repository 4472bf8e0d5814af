import { invalid } from '../errors.ts';

const MAX_DEPTH = 64;

/**
 * The rule for characters PostgreSQL text cannot hold: a NUL character, or a string that is not well-formed
 * Unicode (a lone surrogate), anywhere in the input, in a value or in a key, is a 400 naming the field. The
 * gateway applies it to every public call's raw input (path, query and body merged, unknown keys included)
 * before the hop; every procedure applies it to its parsed input before its handler (kit `implement`). So no
 * such string ever reaches a query (where PostgreSQL would throw), whatever the operation's own schema says.
 */
export function assertStorableInput(input: unknown): void {
  const bad = findUnstorable(input, 0);
  if (bad) throw invalid(`Invalid request: ${bad.path.length ? `${bad.path.join('.')}: ` : ''}${bad.why}`);
}

interface Unstorable {
  /** Where, outermost first: filled on the way back up, so a good input (every call) builds no path. */
  path: (string | number)[];
  why: string;
}

const problemOf = (s: string): string | undefined =>
  s.includes('\u0000')
    ? 'must not contain NUL characters'
    : s.isWellFormed()
      ? undefined
      : 'must be valid Unicode text (no lone surrogates)';

function findUnstorable(value: unknown, depth: number): Unstorable | undefined {
  if (typeof value === 'string') {
    const why = problemOf(value);
    return why ? { path: [], why } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_DEPTH) return { path: [], why: `nested deeper than ${MAX_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = findUnstorable(value[i], depth + 1);
      if (bad) {
        bad.path.unshift(i);
        return bad;
      }
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const why = problemOf(key);
    if (why) return { path: [key.replace(/[\u0000-\u001f]/g, '?')], why: `key ${why}` };
    const bad = findUnstorable((value as Record<string, unknown>)[key], depth + 1);
    if (bad) {
      bad.path.unshift(key);
      return bad;
    }
  }
  return undefined;
}
