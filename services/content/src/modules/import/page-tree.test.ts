import { describe, expect, it } from 'vitest';
import { buildPageTree } from './page-tree.ts';

const page = (key: string) => ({ key, segments: key === '/' ? [] : key.split('/').filter(Boolean) });

describe('buildPageTree', () => {
  it('nests pages by their URL paths, the folder page and one-segment pages at the top level', () => {
    const tree = buildPageTree(['/', '/guides', '/api', '/guides/setup', '/guides/setup/linux', '/api/auth'].map(page));
    expect(tree.map((n) => [n.key, n.parent])).toEqual([
      ['/', null],
      ['/guides', null],
      ['/api', null],
      ['/guides/setup', '/guides'],
      ['/api/auth', '/api'],
      ['/guides/setup/linux', '/guides/setup'],
    ]);
  });

  it('puts a page whose parent path was not imported under its nearest imported ancestor, else at the top level', () => {
    const tree = buildPageTree(['/guides', '/guides/a/b/c', '/blog/2024/post'].map(page));
    expect(Object.fromEntries(tree.map((n) => [n.key, n.parent]))).toEqual({
      '/guides': null,
      '/guides/a/b/c': '/guides',
      '/blog/2024/post': null,
    });
  });

  it('lists parents before their children, keeping the order found among the others', () => {
    const tree = buildPageTree(['/b/x', '/a', '/b', '/a/y'].map(page));
    expect(tree.map((n) => n.key)).toEqual(['/a', '/b', '/b/x', '/a/y']);
    expect(tree.map((n) => n.depth)).toEqual([0, 0, 1, 1]);
  });

  it('gives pages of the same path (two queries) the first one as parent of their children', () => {
    const tree = buildPageTree([
      { key: '/a?v=1', segments: ['a'] },
      { key: '/a?v=2', segments: ['a'] },
      { key: '/a/b', segments: ['a', 'b'] },
    ]);
    expect(tree.find((n) => n.key === '/a/b')!.parent).toBe('/a?v=1');
    expect(tree.find((n) => n.key === '/a?v=2')!.parent).toBeNull();
  });
});
