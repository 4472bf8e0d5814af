import { describe, expect, it } from 'vitest';
import { conflictMarkdown, conflictsIn } from '@quire/document/model';
import { edit, MarkdownStore, page, tree, without } from './merge.fixtures.ts';
import { mergeTrees } from './merge-trees.ts';
import type { TreeSnapshot } from './tree.ts';

const LABELS = { ours: 'main', theirs: 'change request #3' };

function setup() {
  const store = new MarkdownStore();
  const base = tree(
    page('guides', { kind: 'group', title: 'Guides', order: 'a0' }),
    page('reference', { kind: 'group', title: 'Reference', order: 'a1' }),
    page('setup', { parentId: 'guides', title: 'Setup', documentHash: store.put('Install it.\n'), order: 'a0' }),
  );
  const merge = async (ours: TreeSnapshot, theirs: TreeSnapshot, conflictBlocks = true) => {
    const r = await mergeTrees(
      { base, ours, theirs, loadMarkdown: store.load, labels: LABELS, conflictBlocks },
      store.hash,
    );
    store.keep(r.documents);
    return { ...r, text: (id: string) => store.text(r.tree.get(id)!.documentHash) };
  };
  return { store, base, merge };
}

describe('mergeTrees with conflict blocks: page-level conflicts keep both versions', () => {
  it('a title changed on both sides: the change request’s title, main’s in a conflict block at the top', async () => {
    const { base, merge } = setup();
    const r = await merge(
      edit(base, 'setup', { title: 'Installation' }),
      edit(base, 'setup', { title: 'Getting set up' }),
    );
    expect(r.tree.get('setup')!.title).toBe('Getting set up');
    expect(r.conflicts).toEqual([{ pageId: 'setup', fields: ['title'] }]);
    const block = conflictMarkdown([
      { title: 'main', markdown: '**Title:** Installation\n' },
      { title: 'change request #3', markdown: '**Title:** Getting set up\n' },
    ]).trimEnd();
    expect(r.text('setup')).toBe(`${block}\n\nInstall it.\n`);
    expect(conflictsIn(r.text('setup'))).toBe(1);
  });

  it('a page moved to two parents: under the change request’s, both parents named in the block', async () => {
    const { base, merge } = setup();
    const r = await merge(
      edit(base, 'setup', { parentId: null, order: 'a2' }),
      edit(base, 'setup', { parentId: 'reference' }),
    );
    expect(r.tree.get('setup')!.parentId).toBe('reference');
    const text = r.text('setup');
    expect(text).toContain('**Parent:** (top level)');
    expect(text).toContain('**Parent:** Reference (/reference)');
    expect(conflictsIn(text)).toBe(1);
  });

  it.each([
    [
      'deleted in the change request, edited in main: kept with main’s text inside a block whose other side is empty',
      'main',
      'Install it with npm.\n',
    ],
    [
      'deleted in main, edited in the change request: kept with the change request’s text, main’s side empty',
      'change request',
      'Install it with pnpm.\n',
    ],
  ] as const)('%s', async (_name, editedIn, markdown) => {
    const { base, store, merge } = setup();
    const edited = edit(base, 'setup', { documentHash: store.put(markdown) });
    const deleted = without(base, 'setup');
    const r = editedIn === 'main' ? await merge(edited, deleted) : await merge(deleted, edited);
    expect(r.conflicts).toEqual([{ pageId: 'setup', fields: ['deleted'] }]);
    expect(r.text('setup')).toBe(
      conflictMarkdown([
        { title: 'main', markdown: editedIn === 'main' ? markdown : '' },
        { title: 'change request #3', markdown: editedIn === 'main' ? '' : markdown },
      ]),
    );
  });

  it('a text conflict and a title conflict in one page: two blocks, nothing lost', async () => {
    const { base, store, merge } = setup();
    const r = await merge(
      edit(base, 'setup', { title: 'A', documentHash: store.put('Install it from main.\n') }),
      edit(base, 'setup', { title: 'B', documentHash: store.put('Install it from the CR.\n') }),
    );
    expect(r.conflicts).toEqual([{ pageId: 'setup', fields: ['title', 'document'] }]);
    const text = r.text('setup');
    expect(conflictsIn(text)).toBe(2);
    for (const s of ['**Title:** A', '**Title:** B', 'Install it from main.', 'Install it from the CR.'])
      expect(text).toContain(s);
  });

  it('writes no page-level block without the option (a merge), nor for groups, nor for sibling order', async () => {
    const { base, merge } = setup();
    const titled = await merge(edit(base, 'setup', { title: 'X' }), edit(base, 'setup', { title: 'Y' }), false);
    expect(titled.text('setup')).toBe('Install it.\n');
    const group = await merge(edit(base, 'guides', { title: 'G1' }), edit(base, 'guides', { title: 'G2' }));
    expect(group.tree.get('guides')).toMatchObject({ kind: 'group', title: 'G2', documentHash: null });
    const order = await merge(edit(base, 'setup', { order: 'a5' }), edit(base, 'setup', { order: 'a7' }));
    expect(order.text('setup')).toBe('Install it.\n');
  });
});
