import { describe, expect, it } from 'vitest';
import { pageKey, segmentName, siteScope } from './site-scope.ts';

describe('pageKey', () => {
  it.each([
    ['https://acme.io/docs/', 'https://acme.io/docs'],
    ['https://acme.io/docs', 'https://acme.io/docs'],
    ['https://acme.io/docs/index.html', 'https://acme.io/docs'],
    ['https://acme.io/docs/INDEX.HTM#top', 'https://acme.io/docs'],
    ['https://ACME.io:443/docs/setup.html#install', 'https://acme.io/docs/setup.html'],
    ['https://acme.io/', 'https://acme.io/'],
    ['https://acme.io', 'https://acme.io/'],
    ['https://acme.io/index.html', 'https://acme.io/'],
    ['https://acme.io/search?q=x#r', 'https://acme.io/search?q=x'],
    ['https://user:pw@acme.io/a', 'https://acme.io/a'],
  ])('%s → %s', (url, key) => expect(pageKey(url)).toBe(key));

  it('is null for what is not an http(s) URL', () => {
    expect(pageKey('mailto:ann@acme.io')).toBeNull();
    expect(pageKey('ftp://acme.io/x')).toBeNull();
    expect(pageKey('not a url')).toBeNull();
  });
});

describe('siteScope', () => {
  it('is the start page’s folder on its origin', () => {
    for (const start of ['https://acme.io/docs', 'https://acme.io/docs/intro.html']) {
      const scope = siteScope(pageKey(start)!);
      expect(scope.folder).toBe('/docs');
      expect(scope.contains('https://acme.io/docs')).toBe(true);
      expect(scope.contains('https://acme.io/docs/guides/setup')).toBe(true);
      expect(scope.contains('https://acme.io/docsearch')).toBe(false);
      expect(scope.contains('https://acme.io/blog/post')).toBe(false);
      expect(scope.contains('http://acme.io/docs/a')).toBe(false);
      expect(scope.contains('https://www.acme.io/docs/a')).toBe(false);
    }
  });

  it('is the whole origin from its root', () => {
    const scope = siteScope('https://acme.io/');
    expect(scope.contains('https://acme.io/blog/post')).toBe(true);
    expect(scope.segments('https://acme.io/blog/post')).toEqual(['blog', 'post']);
    expect(scope.segments('https://acme.io/')).toEqual([]);
  });

  it('gives a page’s path below the folder, decoded', () => {
    const scope = siteScope('https://acme.io/docs');
    expect(scope.segments('https://acme.io/docs')).toEqual([]);
    expect(scope.segments('https://acme.io/docs/guides/caf%C3%A9.html')).toEqual(['guides', 'café.html']);
  });
});

it('segmentName drops a page extension', () => {
  expect(segmentName('getting-started.html')).toBe('getting-started');
  expect(segmentName('faq.php')).toBe('faq');
  expect(segmentName('v1.2')).toBe('v1.2');
});
