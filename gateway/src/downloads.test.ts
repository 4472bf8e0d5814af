import { describe, expect, it } from 'vitest';
import { contentDisposition } from './downloads.ts';

/** The value of `filename*` decoded, as a browser reads it. */
const extended = (header: string) => decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(header)![1]!);
/** The quoted `filename` fallback. */
const fallback = (header: string) => /filename="([^"]*)"/.exec(header)![1];

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    const h = contentDisposition('Rapport été 2025.pdf');
    expect(h).toBe(`attachment; filename="Rapport ete 2025.pdf"; filename*=UTF-8''Rapport%20%C3%A9t%C3%A9%202025.pdf`);
    expect(extended(h)).toBe('Rapport été 2025.pdf');
    expect(fallback(contentDisposition('日本語.txt'))).toBe('___.txt');
    expect(extended(contentDisposition('日本語.txt'))).toBe('日本語.txt');
  });

  it('cannot be broken out of by quotes, backslashes, CR/LF or path separators', () => {
    const h = contentDisposition('a"b\\c\r\nSet-Cookie: x=1\u202e/../etc/passwd%41');
    expect(h).not.toMatch(/[\r\n]/);
    expect(h.match(/"/g)).toHaveLength(2);
    expect(fallback(h)).toBe('a_b_c__Set-Cookie: x=1__.._etc_passwd_41');
    expect(extended(h)).toBe('a"b_c__Set-Cookie: x=1__.._etc_passwd%41');
    // RFC 5987 attr-chars only: ' ( ) * are escaped too.
    expect(contentDisposition("it's (1)*.txt")).toContain(`filename*=UTF-8''it%27s%20%281%29%2A.txt`);
  });

  it('names an empty or unsafe-only name "download", and survives lone surrogates', () => {
    expect(fallback(contentDisposition('\r\n'))).toBe('__');
    expect(fallback(contentDisposition('   '))).toBe('download');
    expect(() => contentDisposition('a\ud800b.txt')).not.toThrow();
  });
});
