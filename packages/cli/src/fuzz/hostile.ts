import fc from 'fast-check';

/**
 * Hostile inputs: text that has broken the contract before (control characters, NUL, lone surrogates,
 * RTL and combining marks, emoji, very long values) and raw URL pieces (malformed percent-escapes,
 * over-long path parameters, deeply bracketed query keys, forged page cursors, wrong scalar types).
 * Raw pieces are sent exactly as written: ASCII, except the few raw bytes meant to break the request line.
 */

const FIXED_TEXT = [
  'abc\u0000',
  'a\u0000b',
  '\u0000',
  '\u0000'.repeat(8),
  'x\u0001\u0002\u0003\u001b\u001f\u007f',
  'line\nbreak\r\n',
  '\t',
  ' ',
  '  padded  ',
  '',
  '\ud800',
  'a\udfffb',
  '\ufeffbom',
  '\u200b\u200d',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שָׁלוֹם',
  'Z̷̡̢̛a̸̢l̷g̶o̵',
  '👩‍👩‍👧‍👦🏳️‍🌈😀',
  '\u{10FFFF}',
  '\uFFFE\uFFFF',
  'ｆｕｌｌｗｉｄｔｈ',
  "' OR 1=1 --",
  '"; drop table x; --',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '%00',
  '%zz',
  '\\',
  '\\u0000',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e999',
  'true',
  '[]',
  '{}',
];

/** Characters repeated into very long values: ASCII, accented, astral, combining, RTL override, Arabic, NUL. */
const LONG_UNITS = ['x', 'é', '😀', 'e\u0301', '\u202E', 'ب', '\u0000', '\u200b'];

/** Control characters, NUL most often (it is what breaks PostgreSQL text). */
const controls = fc.string({
  unit: fc.oneof(
    fc.constant('\u0000'),
    fc.integer({ min: 1, max: 0x1f }).map((c) => String.fromCharCode(c)),
  ),
  minLength: 1,
  maxLength: 4,
});

/** Text, unencoded; `cost` measures a value where it is sent, and stays at most `budget`. */
export function hostileText(budget: number, cost: (s: string) => number = (s) => s.length): fc.Arbitrary<string> {
  const long = fc
    .constantFrom(...LONG_UNITS)
    .chain((unit) =>
      fc.integer({ min: 101, max: Math.max(101, Math.floor(budget / cost(unit))) }).map((n) => unit.repeat(n)),
    );
  return fc
    .oneof(
      {
        arbitrary: fc
          .tuple(
            fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
            controls,
            fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
          )
          .map((parts) => parts.join('')),
        weight: 4,
      },
      { arbitrary: fc.constantFrom(...FIXED_TEXT), weight: 3 },
      { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
      { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), weight: 1 },
      { arbitrary: long, weight: 1 },
    )
    .filter((s) => cost(s) <= budget);
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Percent-encodes every character outside the unreserved set (UTF-8); a lone surrogate becomes its invalid 3-byte form. */
export function encode(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (UNRESERVED.test(ch)) out += ch;
    else if (cp >= 0xd800 && cp <= 0xdfff)
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)].map(hex).join('');
    else out += [...Buffer.from(ch, 'utf8')].map(hex).join('');
  }
  return out;
}

export const encodedLength = (s: string) => encode(s).length;

const BAD_ESCAPES = [
  '%zz',
  '%C0%AF',
  '%E2%82',
  '%',
  '%0',
  '%G1',
  '%ED%A0%80',
  '%FF',
  '%F0%9F%98',
  '%C0%80',
  '%E0%80%80',
  '%u0000',
  '%%',
  '%F8%88%80%80%80',
];
const ODD_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fhealthz',
  'a%2Fb',
  '%2F',
  '%5C',
  '%20',
  '+',
  '%25',
  '',
  '*',
  'a;b=c',
  '%3F',
  '%23',
  '~',
  '%2500',
  "'",
  '()',
];

/** A malformed percent-escape before, inside or after `base`. */
const badEscapeAround = (bases: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...bases, 'abc'), fc.constantFrom(...BAD_ESCAPES), fc.nat({ max: 24 }))
    .map(([base, esc, at]) => {
      const i = Math.min(at, base.length);
      return base.slice(0, i) + esc + base.slice(i);
    });

/**
 * Bytes sent unencoded in the request line (NUL, space, tab, DEL, control characters, raw UTF-8), each character standing
 * for one byte; HTTP clients refuse some of them, so such requests go over a plain socket.
 */
const RAW_BYTES = [
  'abc\u0000',
  'a\u0000b',
  'a b',
  'a\tb',
  '\u007f',
  '\u0001\u001f',
  Buffer.from('é😀\u202e', 'utf8').toString('latin1'),
];

/** Path parameters stay well under the 16 KB URL + headers limit (several may be in one URL). */
const PATH_BUDGET = 3000;

/** A raw path segment: encoded hostile text, malformed escapes, odd segments, lengths around and over 100, raw bytes. */
export function hostileSegment(ids: readonly string[]): fc.Arbitrary<string> {
  const longId = fc.tuple(
    fc.constantFrom(...ids, 'a'),
    fc.oneof(fc.integer({ min: 99, max: 102 }), fc.integer({ min: 103, max: 1500 })),
  );
  return fc.oneof(
    { arbitrary: hostileText(PATH_BUDGET, encodedLength).map(encode), weight: 4 },
    { arbitrary: badEscapeAround(ids), weight: 3 },
    { arbitrary: fc.constantFrom(...ODD_SEGMENTS), weight: 1 },
    { arbitrary: longId.map(([id, n]) => id.padEnd(n, 'x')), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_BYTES), weight: 1 },
  );
}

const WRONG_SCALARS = [
  'abc',
  '-1',
  '1.5',
  '1e999',
  '',
  '0x10',
  'NaN',
  'Infinity',
  '9'.repeat(400),
  'true',
  'null',
  '[]',
  '{}',
  '1,2',
  ' 1',
  '١٢',
];
const QUERY_BUDGET = 1500;

/** A page cursor the platform never issued: JSON arrays of odd values, random bytes, non-base64 text. */
export const forgedCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(
      fc.oneof(
        fc.string(),
        fc.double(),
        fc.integer(),
        fc.constant(null),
        fc.boolean(),
        fc.constantFrom(...FIXED_TEXT),
        fc.date({ noInvalidDate: true }),
      ),
      { maxLength: 4 },
    )
    .map((values) => Buffer.from(JSON.stringify(values)).toString('base64url')),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
  fc.constantFrom('!!!', 'WyJ4Il0', 'W10', 'e30', 'bnVsbA', 'A'.repeat(3000), '%00', '%zz'),
);

/** A raw query value: encoded hostile text, a wrong scalar, a malformed escape, a forged cursor or raw bytes. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileText(QUERY_BUDGET, encodedLength).map(encode),
  fc.constantFrom(...WRONG_SCALARS).map(encode),
  badEscapeAround(['1', 'desc']),
  forgedCursor,
  fc.constantFrom(...RAW_BYTES),
);

/** How a declared query parameter is written: plainly, repeated, bracketed, without `=`. */
export const queryKeyForm = fc.constantFrom<(k: string, v: string) => string>(
  (k, v) => `${k}=${v}&${k}=${v}`,
  (k, v) => `${k}[]=${v}`,
  (k, v) => `${k}[0]=${v}`,
  (k, v) => `${k}[a][b]=${v}`,
  (k) => k,
  (k) => `${k}=`,
);

/** Extra raw query pairs: deeply bracketed keys, prototype keys, names that collide with parameters or body fields, junk. */
export function hostileQueryPair(names: readonly string[], ids: readonly string[]): fc.Arbitrary<string> {
  const name = fc.constantFrom(...names, 'x');
  const deep = fc.tuple(name, fc.integer({ min: 1, max: 30 }), fc.boolean()).map(([k, depth, encoded]) => {
    const key = Array.from({ length: depth }, (_, i) => (encoded ? `%5B${i}%5D` : `[${i}]`)).join('');
    return `${k}${key}=x`;
  });
  return fc.oneof(
    { arbitrary: deep, weight: 3 },
    {
      arbitrary: fc.constantFrom(
        '__proto__[x]=1',
        'constructor[prototype][x]=1',
        '__proto__=1',
        'hasOwnProperty=1',
        'toString[]=1',
      ),
      weight: 1,
    },
    { arbitrary: fc.tuple(name, fc.constantFrom(...ids, '')).map(([k, v]) => `${k}=${v}`), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '&&&',
        '=',
        '==',
        '%zz=%zz',
        '%00=%00',
        'a=%',
        ';',
        '?a=b',
        'a=1#frag',
        'a=1&'.repeat(1000),
      ),
      weight: 1,
    },
  );
}
