import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeRedirectSource, SiteRedirectSourcePathSchema } from '@quire/contracts';
import { withCapturedRest } from './redirect-target.ts';

const segment = fc.stringMatching(/^[A-Za-z0-9._~+-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
const path = fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `/${s.join('/')}`);

describe('redirect sources', () => {
  it('normalises to one form: idempotent, whatever slashes and query surround a path', () => {
    // Found by the property below (white space left before a query, or between slashes at the end).
    expect(normalizeRedirectSource('! #')).toBe('/!');
    expect(normalizeRedirectSource('/a /')).toBe('/a');
    expect(normalizeRedirectSource(' / ')).toBe('/');
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const once = normalizeRedirectSource(s);
        expect(normalizeRedirectSource(once)).toBe(once);
        expect(once.startsWith('/')).toBe(true);
        expect(once.length === 1 || !once.endsWith('/')).toBe(true);
        expect(/[?#]/.test(once)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(path, fc.boolean(), fc.boolean(), fc.string({ maxLength: 20 }), (p, leading, trailing, query) => {
        const written = `${leading ? p : p.slice(1)}${trailing ? '/' : ''}?${query}`;
        expect(SiteRedirectSourcePathSchema.parse(written)).toBe(p);
      }),
    );
  });

  it('accepts a final wildcard only, and refuses what is not a path of URL-safe segments', () => {
    expect(SiteRedirectSourcePathSchema.parse('/old/*')).toBe('/old/*');
    expect(SiteRedirectSourcePathSchema.parse('old*')).toBe('/old*');
    for (const bad of ['/', '/*', '/a/*/b', '/a b', '/a//b', '/é', '/a/../b', '/./a', `/${'a'.repeat(600)}`]) {
      expect(SiteRedirectSourcePathSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('appends a captured rest to a site path or an external URL, keeping its query', () => {
    fc.assert(
      fc.property(path, path, (target, rest) => {
        expect(withCapturedRest(target, rest.slice(1))).toBe(`${target}${rest}`);
      }),
    );
    expect(withCapturedRest('https://blog.example.com/posts?ref=docs', '2024/a')).toBe(
      'https://blog.example.com/posts/2024/a?ref=docs',
    );
    expect(withCapturedRest('/', 'a/b')).toBe('/a/b');
    expect(withCapturedRest('/guides', '')).toBe('/guides');
    expect(withCapturedRest('https://blog.example.com/posts', '../../admin/./x')).toBe(
      'https://blog.example.com/posts/admin/x',
    );
  });
});
