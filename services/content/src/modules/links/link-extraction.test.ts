import { describe, expect, it } from 'vitest';
import { classifyTarget, extractCached, extractLinks, isInApp, targetOfUrl, type Resolution } from './link-extraction.ts';

describe('targetOfUrl', () => {
  it('reads the content engine conventions: pages, anchors, files, URLs', () => {
    expect(targetOfUrl('/pages/p1')).toEqual({ kind: 'page', page: 'p1' });
    expect(targetOfUrl('/pages/p1#set-up')).toEqual({ kind: 'page', page: 'p1', anchor: 'set-up' });
    expect(targetOfUrl('#intro')).toEqual({ kind: 'anchor', anchor: 'intro' });
    expect(targetOfUrl('gitbook-file:f1')).toEqual({ kind: 'file', file: 'f1' });
    expect(targetOfUrl('gitbook-file:f1?space=s2')).toEqual({ kind: 'file', file: 'f1', space: 's2' });
    expect(targetOfUrl('/files/f1')).toEqual({ kind: 'file', file: 'f1' });
    expect(targetOfUrl('https://example.com/a#b')).toEqual({ kind: 'url', url: 'https://example.com/a#b' });
    expect(targetOfUrl('./other.md')).toEqual({ kind: 'url', url: './other.md' });
    expect(targetOfUrl('#')).toEqual({ kind: 'url', url: '#' });
  });
});

describe('extractLinks', () => {
  it('lists the distinct targets of links and images in reading order, and the heading anchors', () => {
    const markdown = [
      '# Title',
      'See [a](/pages/p2) and [b](/pages/p2#usage), [ext](https://example.com) and [a again](/pages/p2).',
      '![diagram](gitbook-file:f1)',
      '## Usage',
      '- nested [x](#title) in a list',
      '| a | b |\n|---|---|\n| [cell](/pages/p3) | ![img](gitbook-file:f2) |',
    ].join('\n\n');
    const out = extractLinks(markdown);
    expect(out.targets).toEqual([
      { kind: 'page', page: 'p2' },
      { kind: 'page', page: 'p2', anchor: 'usage' },
      { kind: 'url', url: 'https://example.com' },
      { kind: 'file', file: 'f1' },
      { kind: 'anchor', anchor: 'title' },
      { kind: 'page', page: 'p3' },
      { kind: 'file', file: 'f2' },
    ]);
    expect([...out.anchors]).toEqual(['title', 'usage']);
  });

  it('caches by document hash', () => {
    const first = extractCached('h1', '[a](/pages/p1)');
    expect(extractCached('h1', 'ignored: the hash is the content')).toBe(first);
  });

  it('finds nothing in a document without links', () => {
    expect(extractLinks('Just text.\n\n```\n[not](/pages/x)\n```').targets).toEqual([]);
  });
});

describe('classifyTarget', () => {
  const r: Resolution = {
    spaceId: 's1',
    base: 'https://docs.example.org',
    hasPage: (id) => id === 'p1' || id === 'p2',
    hasFile: (id) => id === 'f1',
    anchorsOf: (id) => (id === 'p1' ? new Set(['intro']) : id === 'p2' ? new Set<string>() : undefined),
  };

  it('checks pages, anchors and files against the revision', () => {
    expect(classifyTarget({ kind: 'page', page: 'p2' }, 'p1', r)).toBe('ok');
    expect(classifyTarget({ kind: 'page', page: 'gone' }, 'p1', r)).toBe('broken');
    expect(classifyTarget({ kind: 'page', page: 'p1', anchor: 'intro' }, 'p2', r)).toBe('ok');
    expect(classifyTarget({ kind: 'page', page: 'p1', anchor: 'outro' }, 'p2', r)).toBe('broken');
    expect(classifyTarget({ kind: 'anchor', anchor: 'intro' }, 'p1', r)).toBe('ok');
    expect(classifyTarget({ kind: 'anchor', anchor: 'intro' }, 'p2', r)).toBe('broken');
    expect(classifyTarget({ kind: 'file', file: 'f1' }, 'p1', r)).toBe('ok');
    expect(classifyTarget({ kind: 'file', file: 'f9' }, 'p1', r)).toBe('broken');
    expect(classifyTarget({ kind: 'file', file: 'f9', space: 's1' }, 'p1', r)).toBe('broken');
    expect(classifyTarget({ kind: 'file', file: 'f9', space: 'other' }, 'p1', r)).toBe('ok');
  });

  it('never fetches URLs: external ones are ok, the platform own ones in-app, unresolved relative ones broken', () => {
    expect(classifyTarget({ kind: 'url', url: 'https://example.com/x' }, 'p1', r)).toBe('ok');
    expect(classifyTarget({ kind: 'url', url: 'mailto:a@b.c' }, 'p1', r)).toBe('ok');
    expect(classifyTarget({ kind: 'url', url: 'https://docs.example.org/o/1/s/2' }, 'p1', r)).toBe('in-app');
    expect(classifyTarget({ kind: 'url', url: '//docs.example.org/s/2' }, 'p1', r)).toBe('in-app');
    expect(classifyTarget({ kind: 'url', url: '/o/1/s/2' }, 'p1', r)).toBe('in-app');
    expect(classifyTarget({ kind: 'url', url: './missing.md' }, 'p1', r)).toBe('broken');
  });

  it('isInApp compares host and base path', () => {
    expect(isInApp('http://localhost:3000/v1/spaces', 'http://localhost:3000')).toBe(true);
    expect(isInApp('http://localhost:3001/v1/spaces', 'http://localhost:3000')).toBe(false);
    expect(isInApp('https://example.org/docs/x', 'https://example.org/docs')).toBe(true);
    expect(isInApp('https://example.org/docsx', 'https://example.org/docs')).toBe(false);
    expect(isInApp('not a url', 'https://example.org')).toBe(false);
  });
});
