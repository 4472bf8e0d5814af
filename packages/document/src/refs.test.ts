import { describe, expect, it } from 'vitest';
import { refFromUrl, urlFromRef } from './refs.ts';

describe('file references in markdown URLs', () => {
  it('reads gitbook-file: URLs as file references, with an optional space', () => {
    expect(refFromUrl('gitbook-file:abc')).toEqual({ kind: 'file', file: 'abc' });
    expect(refFromUrl('gitbook-file:abc?space=sp1')).toEqual({ kind: 'file', file: 'abc', space: 'sp1' });
    expect(refFromUrl('gitbook-file:a%2Fb')).toEqual({ kind: 'file', file: 'a/b' });
  });

  it('keeps every other URL as a url reference', () => {
    for (const url of [
      'https://x.io/a.png',
      'files/abc',
      '../page.md',
      '',
      'gitbook-file:',
      'gitbook-file:a?other=1',
      'gitbook-file:%E0%A4%A',
    ]) {
      expect(refFromUrl(url)).toEqual({ kind: 'url', url });
    }
  });

  it('writes references back to the same URLs', () => {
    for (const url of [
      'gitbook-file:abc',
      'gitbook-file:abc?space=sp1',
      'gitbook-file:a%2Fb',
      'https://x.io',
      'files/abc',
    ]) {
      expect(urlFromRef(refFromUrl(url))).toBe(url);
    }
  });
});
