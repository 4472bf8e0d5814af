import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../api/endpoints.ts';
import { findDocument, findPage } from './revision-pages.ts';

const page = (id: string, pages: unknown[] = [], path = id) => ({ id, type: 'document', title: id, path, pages });
const tree = [
  page('a'),
  page('b', [page('c', [page('d', [], 'b/c/café')])]),
  { id: 'g', type: 'group', title: 'G', path: 'g', pages: [] },
  { id: 'l', type: 'link', title: 'L' },
] as RevisionPage[];

describe('findPage', () => {
  it('finds a page at any level, links included', () => {
    expect(findPage(tree, 'a')?.title).toBe('a');
    expect(findPage(tree, 'd')?.title).toBe('d');
    expect(findPage(tree, 'l')?.type).toBe('link');
  });
  it('says when the tree has no such page', () => {
    expect(findPage(tree, 'zz')).toBeUndefined();
    expect(findPage([], 'a')).toBeUndefined();
  });
});

describe('findDocument', () => {
  it('finds a document by its path, percent-encoded or not', () => {
    expect(findDocument(tree, 'a')?.id).toBe('a');
    expect(findDocument(tree, 'b/c/café')?.id).toBe('d');
    expect(findDocument(tree, 'b/c/caf%C3%A9')?.id).toBe('d');
  });
  it('finds no group, and nothing for an unknown or broken path', () => {
    expect(findDocument(tree, 'g')).toBeUndefined();
    expect(findDocument(tree, 'zz')).toBeUndefined();
    expect(findDocument(tree, '%E0%A4%A')).toBeUndefined();
  });
});
