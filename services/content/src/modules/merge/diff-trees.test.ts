import { describe, expect, it } from 'vitest';
import { RevisionSemanticChangesSchema } from '@quire/contracts';
import { diffTrees, limitChanges } from './diff-trees.ts';
import { edit, MarkdownStore, page, tree, withPages, without } from './merge.fixtures.ts';

function setup() {
  const store = new MarkdownStore();
  const base = tree(
    page('docs', { kind: 'group', slug: 'docs', order: 'a0' }),
    page('intro', { parentId: 'docs', slug: 'intro', order: 'a0', documentHash: store.put('Hello\n') }),
    page('guide', { parentId: 'docs', slug: 'guide', order: 'a1' }),
    page('install', { parentId: 'guide', slug: 'install', order: 'a0' }),
    page('faq', { slug: 'faq', order: 'a1' }),
    page('site', { kind: 'link', slug: '', href: 'https://quire.example', order: 'a2' }),
  );
  return { store, base };
}

describe('diffTrees', () => {
  it('reports nothing between equal trees', async () => {
    const { store, base } = setup();
    expect(await diffTrees(base, new Map(base), store.load)).toEqual([]);
  });

  it('reports created, edited, moved and deleted pages with their paths, in GitBook’s shapes', async () => {
    const { store, base } = setup();
    let head = withPages(base, page('api', { parentId: 'guide', slug: 'api', order: 'a1', title: 'API' }));
    head = edit(head, 'intro', {
      title: 'Introduction',
      emoji: '👋',
      documentHash: store.put('Hello, world\n'),
      layout: { width: 'wide' },
    });
    head = edit(head, 'install', { parentId: 'docs', order: 'a2' });
    head = edit(head, 'docs', { slug: 'documentation' });
    head = edit(head, 'site', { href: 'https://docs.quire.example' });
    head = without(head, 'faq');

    const changes = await diffTrees(base, head, store.load);
    expect(changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'docs', type: 'group', title: 'docs', path: 'documentation' },
        attributes: { slug: { before: 'docs', after: 'documentation' } },
      },
      {
        type: 'page_edited',
        page: { id: 'intro', type: 'document', title: 'Introduction', path: 'documentation/intro' },
        attributes: {
          title: { before: 'intro', after: 'Introduction' },
          emoji: { after: '👋' },
          document: { before: base.get('intro')!.documentHash, after: head.get('intro')!.documentHash },
          layout: { after: { width: 'wide' } },
        },
      },
      { type: 'page_created', page: { id: 'api', type: 'document', title: 'API', path: 'documentation/guide/api' } },
      {
        type: 'page_moved',
        page: { id: 'install', type: 'document', title: 'install', path: 'documentation/install' },
        parent: {
          before: { id: 'guide', type: 'document', title: 'guide', path: 'docs/guide' },
          after: { id: 'docs', type: 'group', title: 'docs', path: 'documentation' },
        },
      },
      {
        type: 'page_edited',
        page: { id: 'site', type: 'link', title: 'site' },
        attributes: {
          target: {
            before: { kind: 'url', url: 'https://quire.example' },
            after: { kind: 'url', url: 'https://docs.quire.example' },
          },
        },
      },
      { type: 'page_deleted', page: { id: 'faq', type: 'document', title: 'faq', path: 'faq' } },
    ]);
    expect(RevisionSemanticChangesSchema.parse({ changes })).toEqual({ changes });
    // Hashes changed between two non-null values: no markdown needed.
    expect(store.loads).toEqual([]);
  });

  it('reports a page moved to the top level (no parent after) and one reordered among its siblings (same parent)', async () => {
    const { store, base } = setup();
    const head = edit(edit(base, 'guide', { parentId: null, order: 'a3' }), 'faq', { order: 'a5' });
    const changes = await diffTrees(base, head, store.load);
    expect(changes).toEqual([
      {
        type: 'page_moved',
        page: { id: 'guide', type: 'document', title: 'guide', path: 'guide' },
        parent: { before: { id: 'docs', type: 'group', title: 'docs', path: 'docs' } },
      },
      { type: 'page_moved', page: { id: 'faq', type: 'document', title: 'faq', path: 'faq' }, parent: {} },
    ]);
  });

  it('reads the markdown only to tell an empty document from a changed one', async () => {
    const { store, base } = setup();
    const emptied = edit(base, 'faq', { documentHash: store.put('') });
    expect(await diffTrees(base, emptied, store.load)).toEqual([]);
    expect(store.loads).toEqual([store.hash('')]);
    const written = edit(base, 'faq', { documentHash: store.put('Now with text\n') });
    expect(await diffTrees(base, written, store.load)).toEqual([
      {
        type: 'page_edited',
        page: { id: 'faq', type: 'document', title: 'faq', path: 'faq' },
        attributes: { document: { after: store.hash('Now with text\n') } },
      },
    ]);
  });

  it('leaves out changes GitBook has no attribute for', async () => {
    const { store, base } = setup();
    const head = edit(edit(base, 'faq', { hidden: true, noIndex: true, icon: 'book' }), 'docs', {
      description: 'Groups have no description in GitBook',
    });
    expect(await diffTrees(base, head, store.load)).toEqual([]);
  });

  it('limits the list and counts the rest', async () => {
    const { store, base } = setup();
    const changes = await diffTrees(base, new Map(), store.load);
    expect(changes.map((c) => c.type)).toEqual(Array(6).fill('page_deleted'));
    expect(limitChanges(changes, 10)).toEqual({ changes });
    expect(limitChanges(changes, 2)).toEqual({ changes: changes.slice(0, 2), more: 4 });
  });
});

describe('RevisionSemanticChangesSchema', () => {
  it('refuses an edit naming no attribute, or one its page type does not have', () => {
    const page = { id: 'p', type: 'group', title: 'P' };
    expect(
      RevisionSemanticChangesSchema.safeParse({ changes: [{ type: 'page_edited', page, attributes: {} }] }).success,
    ).toBe(false);
    expect(
      RevisionSemanticChangesSchema.safeParse({
        changes: [{ type: 'page_edited', page, attributes: { hidden: { after: 'true' } } }],
      }).success,
    ).toBe(false);
    expect(
      RevisionSemanticChangesSchema.safeParse({ changes: [{ type: 'page_moved', page, parent: {} }], more: 3 }).success,
    ).toBe(true);
  });
});
