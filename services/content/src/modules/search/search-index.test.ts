import { describe, expect, it } from 'vitest';
import { page as snapshot } from '../merge/merge.fixtures.ts';
import type { PageRecord } from '../revisions/revision-tree.ts';
import { diffIndexedPages, indexedPagesOf, indexedSectionsOf } from './search-index.ts';

const at = new Date('2026-01-01T00:00:00Z');
const page = (id: string, over: Partial<PageRecord> = {}): PageRecord => ({
  ...snapshot(id, { title: id.toUpperCase(), documentHash: `h-${id}` }),
  createdAt: at,
  updatedAt: at,
  ...over,
});
const treeOf = (...pages: PageRecord[]) => ({ pages: new Map(pages.map((p) => [p.id, p])) });

describe('indexedPagesOf', () => {
  it('keeps document pages with their path and ancestors, not groups, links or noIndex pages', () => {
    const tree = treeOf(
      page('g', { kind: 'group', title: 'Guides', documentHash: null }),
      page('a', { parentId: 'g', title: 'Install', description: 'How to' }),
      page('b', { parentId: 'a', title: 'Linux' }),
      page('l', { kind: 'link', href: 'https://x.io', documentHash: null }),
      page('n', { noIndex: true }),
      page('h', { hidden: true }),
    );
    expect([...indexedPagesOf(tree).values()]).toEqual([
      { pageId: 'a', title: 'Install', path: 'g/a', description: 'How to', ancestors: ['Guides'], documentHash: 'h-a' },
      {
        pageId: 'b',
        title: 'Linux',
        path: 'g/a/b',
        description: '',
        ancestors: ['Guides', 'Install'],
        documentHash: 'h-b',
      },
      { pageId: 'h', title: 'H', path: 'h', description: '', ancestors: [], documentHash: 'h-h' },
    ]);
  });
});

describe('diffIndexedPages', () => {
  it('writes new and changed pages (a renamed parent changes its children), drops removed ones, leaves the rest', () => {
    const a = page('a');
    const b = page('b', { parentId: 'a' });
    const c = page('c');
    const d = page('d');
    const before = indexedPagesOf(treeOf(a, b, c, d));
    const after = indexedPagesOf(treeOf({ ...a, title: 'Renamed' }, b, { ...c, documentHash: 'h-c2' }, page('e')));
    const { upserts, deletes } = diffIndexedPages(before, after);
    expect(upserts.map((p) => p.pageId).sort()).toEqual(['a', 'b', 'c', 'e']);
    expect(upserts.find((p) => p.pageId === 'b')!.ancestors).toEqual(['Renamed']);
    expect(deletes).toEqual(['d']);
    expect(diffIndexedPages(before, before)).toEqual({ upserts: [], deletes: [] });
  });
});

describe('indexedSectionsOf', () => {
  it('gives each section its position, anchor, heading and body', () => {
    expect(indexedSectionsOf('Intro.\n\n## Setup\n\nRun it.\n')).toEqual({
      sections: [
        { position: 0, anchor: '', heading: '', body: 'Intro.' },
        { position: 1, anchor: 'setup', heading: 'Setup', body: 'Run it.' },
      ],
      truncated: false,
    });
  });

  it('cuts the text at the limit', () => {
    const { sections, truncated } = indexedSectionsOf('abcdefghij\n\n## Next\n\nmore\n\n## Last\n\nend\n', 14);
    expect(truncated).toBe(true);
    expect(sections).toEqual([
      { position: 0, anchor: '', heading: '', body: 'abcdefghij' },
      { position: 1, anchor: 'next', heading: 'Next', body: '' },
    ]);
  });
});
