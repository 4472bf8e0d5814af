import { describe, expect, it } from 'vitest';
import { buildPageTree } from '../page-tree.ts';
import { sidebar } from './navigation.ts';

const visitor = { visitor: { claims: {} } };

/** A space of 10,000 pages: 100 chapters of 99 pages each (one level deep), and 100 loose top-level pages. */
function bigSpace() {
  const chapters = Array.from({ length: 100 }, (_, c) => ({
    id: `c${c}`,
    type: 'document',
    title: `Chapter ${c}`,
    path: `chapter-${c}`,
    pages: Array.from({ length: 99 }, (_, i) => ({
      id: `c${c}-${i}`,
      type: 'document',
      title: `Section ${c}.${i}`,
      path: `chapter-${c}/section-${i}`,
      pages: [],
    })),
  }));
  return buildPageTree(chapters as never, visitor);
}

describe('the sidebar of a large space', () => {
  it('stays small: only the current branch is expanded, long sibling lists show their head and the current neighbourhood', () => {
    const tree = bigSpace();
    expect(tree.byId.size).toBe(10_000);
    const current = tree.byId.get('c57-80')!;
    const out = sidebar(tree, '/sites/docs', current).value;
    expect(out.length).toBeLessThan(30_000);
    expect(out).toContain('aria-current="page">Section 57.80</a>');
    expect(out).toContain('>Section 57.70<');
    expect(out).not.toContain('>Section 57.50<');
    expect(out).not.toContain('>Section 12.3<');
    expect(out).toContain('>Chapter 0<');
    expect(out).toContain('<li class="more">');
  });

  it('shows every level of a small space', () => {
    const tree = buildPageTree(
      [
        {
          id: 'a',
          type: 'document',
          title: 'A',
          path: 'a',
          pages: [{ id: 'b', type: 'document', title: 'B', path: 'a/b', pages: [] }],
        },
      ] as never,
      visitor,
    );
    expect(sidebar(tree, '', null).value).toBe(
      '<nav class="pages" aria-label="Pages"><ul><li><a class="" href="/">A</a><ul><li><a class="" href="/a/b">B</a></li></ul></li></ul></nav>',
    );
  });
});
