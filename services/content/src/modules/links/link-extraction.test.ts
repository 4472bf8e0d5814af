import { describe, expect, it } from 'vitest';
import {
  classifyTarget,
  extractCached,
  extractLinks,
  isInApp,
  targetOfUrl,
  targetsOfDocument,
  type Resolution,
} from './link-extraction.ts';
import { link, text } from '@quire/document/testing';

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

describe('targetsOfDocument (GitBook JSON documents)', () => {
  const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
  const fragment = (name: string, nodes: unknown[]) => ({ object: 'fragment', fragment: name, type: name, nodes });

  it('lists mentions of pages and headings, content-refs, buttons, embeds, files, drawings and card targets as links', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        paragraph(
          text('See '),
          { object: 'inline', type: 'mention', data: { ref: { kind: 'page', page: 'p2' } }, isVoid: true },
          text(', '),
          {
            object: 'inline',
            type: 'mention',
            data: { ref: { kind: 'anchor', anchor: 'usage', page: 'p2' } },
            isVoid: true,
          },
          text(', '),
          { object: 'inline', type: 'mention', data: { ref: { kind: 'anchor', anchor: 'top' } }, isVoid: true },
          { object: 'inline', type: 'mention', data: { ref: { kind: 'user', user: 'u1' } }, isVoid: true },
          {
            object: 'inline',
            type: 'button',
            data: { label: 'Go', kind: 'primary', ref: { kind: 'url', url: 'https://example.com/go' } },
            isVoid: true,
          },
          text(''),
        ),
        { object: 'block', type: 'content-ref', data: { ref: { kind: 'page', page: 'p3' } }, isVoid: true },
        {
          object: 'block',
          type: 'content-ref',
          data: { ref: { kind: 'page', page: 'x9', space: 'elsewhere' } },
          isVoid: true,
        },
        { object: 'block', type: 'embed', data: { url: 'https://www.youtube.com/watch?v=1' }, isVoid: true },
        { object: 'block', type: 'file', data: { ref: { kind: 'file', file: 'f1' } }, isVoid: true },
        { object: 'block', type: 'drawing', data: { ref: { kind: 'file', file: 'f2' } }, isVoid: true },
        {
          object: 'block',
          type: 'reusable-content',
          data: { ref: { kind: 'reusable-content', reusableContent: 'r1' } },
          isVoid: true,
        },
        {
          object: 'block',
          type: 'tabs',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'A' },
              nodes: [paragraph(link({ kind: 'url', url: '/pages/p4' }, text('four')))],
            },
          ],
        },
        {
          object: 'block',
          type: 'expandable',
          data: {},
          isVoid: true,
          fragments: [
            fragment('expandable-title', [paragraph(text('More'))]),
            fragment('expandable-body', [paragraph(link({ kind: 'file', file: 'f1' }, text('again')))]),
          ],
        },
        {
          object: 'block',
          type: 'table',
          isVoid: true,
          data: {
            view: {
              type: 'cards',
              columns: ['t', 'target', 'cover', 'files'],
              cardSize: 'medium',
              targetDefinition: 'target',
              coverDefinition: 'cover',
            },
            definition: {
              t: { id: 't', title: 'Title', type: 'text' },
              target: { id: 'target', title: 'Target', type: 'content-ref' },
              cover: { id: 'cover', title: 'Cover', type: 'image' },
              files: { id: 'files', title: 'Files', type: 'files' },
            },
            records: {
              r1: {
                orderIndex: 'a0',
                values: {
                  t: 'frag1',
                  target: { kind: 'page', page: 'p5' },
                  cover: { ref: { kind: 'file', file: 'f3' } },
                  files: ['f4'],
                },
              },
            },
          },
          fragments: [fragment('frag1', [paragraph(text('Card'))])],
        },
      ],
    };
    expect(targetsOfDocument(document)).toEqual([
      { kind: 'page', page: 'p2' },
      { kind: 'page', page: 'p2', anchor: 'usage' },
      { kind: 'anchor', anchor: 'top' },
      { kind: 'url', url: 'https://example.com/go' },
      { kind: 'page', page: 'p3' },
      { kind: 'page', page: 'x9', space: 'elsewhere' },
      { kind: 'url', url: 'https://www.youtube.com/watch?v=1' },
      { kind: 'file', file: 'f1' },
      { kind: 'file', file: 'f2' },
      { kind: 'page', page: 'p4' },
      { kind: 'page', page: 'p5' },
      { kind: 'file', file: 'f3' },
      { kind: 'file', file: 'f4' },
    ]);
  });

  it('never reads the text of code as links', () => {
    const code = {
      object: 'block',
      type: 'code',
      data: {},
      nodes: [
        { object: 'block', type: 'code-line', data: {}, nodes: [text('[x](/pages/p1) {"kind":"page","page":"p1"}')] },
      ],
    };
    expect(targetsOfDocument({ object: 'document', data: {}, nodes: [code] })).toEqual([]);
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

describe('ownSpace', () => {
  it('keeps the targets of the space (without their space) and leaves out another space’s pages and headings', async () => {
    const { ownSpace } = await import('./links.loader.ts');
    expect(ownSpace({ kind: 'page', page: 'p1', space: 's1' }, 's1')).toEqual({ kind: 'page', page: 'p1' });
    expect(ownSpace({ kind: 'page', page: 'p1', anchor: 'a', space: 's2' }, 's1')).toBeUndefined();
    expect(ownSpace({ kind: 'page', page: 'p1' }, 's1')).toEqual({ kind: 'page', page: 'p1' });
    expect(ownSpace({ kind: 'file', file: 'f1', space: 's2' }, 's1')).toEqual({
      kind: 'file',
      file: 'f1',
      space: 's2',
    });
  });
});
